/**
 * What a hidden sign-in frame sends its parent page: the message oidc-client-ts's `signinSilentCallback()` posts
 * (its frame protocol). The frame's page sends it with this one line instead of loading the whole app, so a new
 * tab signing in through the frame does not run the app twice. A test holds it equal to the library's own message.
 */
export function silentSignInAnswer(url: string) {
  return { source: 'oidc-client', url, keepOpen: false } as const;
}
