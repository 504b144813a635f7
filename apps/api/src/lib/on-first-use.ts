/**
 * A module that only some requests need, imported by the first of them and kept: loading pdfkit,
 * @simplewebauthn/server and qrcode at start cost every server process about half a second and 14 MB of resident
 * memory it never used unless a member asked for a receipt, a passkey or an authenticator QR code (issue 39's
 * footprint). A failed import is not kept, so the next request tries again.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    }));
}
