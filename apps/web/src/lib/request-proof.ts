import { createContext, useContext } from 'react';

/**
 * Signs a DPoP proof (RFC 9449) for one API request with the browser's key, which never leaves it: the method, the
 * address (without its query) and the access token it goes with. Undefined when the browser holds no key (then the
 * token is sent as a bearer token).
 */
export type RequestProof = (method: string, url: string, accessToken: string) => Promise<string | undefined>;

/** The sign-in layer provides it when the provider binds tokens to a key; null sends bearer tokens. */
export const RequestProofContext = createContext<RequestProof | null>(null);

export const useRequestProof = () => useContext(RequestProofContext);
