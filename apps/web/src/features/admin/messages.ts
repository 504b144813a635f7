export const ADMIN_TITLE = 'UMS Admin';

export const ADMIN_NAV_LABEL = 'Admin console';

/** While one of the console's pages is fetched (each is its own chunk). */
export const ADMIN_LOADING = 'Loading...';
