export const ADMIN_TITLE = 'UMS Admin';

export const ADMIN_NAV_LABEL = 'Admin console';
