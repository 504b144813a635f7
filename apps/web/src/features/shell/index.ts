// The page frame (header, drawer, footer) and the sign-out confirmation every screen can open.
export { AppShell, type NavEntry } from './app-shell.js';
export { SignOutProvider } from './sign-out-provider.js';
