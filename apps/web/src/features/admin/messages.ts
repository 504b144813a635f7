export const ADMIN_TITLE = 'UMS Admin';

export const ADMIN_NAV_LABEL = 'Admin console';

/** While one of the console's pages is fetched (each is its own chunk). */
export const ADMIN_LOADING = 'Loading...';

/** The page for an address the person's role does not include (its title and advice are the contracts' ROLE_TEXTS). */
export const ADMIN_ROLE_TEXT = { home: 'Go to the console’s start' } as const;
