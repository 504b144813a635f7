export const DEFAULT_ROLE = 'user';

export interface PageView {
  type: 'page_view';
  path: string;
  role: string;
  at: string;
}

export type AnalyticsSink = (event: PageView) => void;

/** Sends events to the configured address with sendBeacon (or a keep-alive POST); no address sends nothing. */
export function beaconSink(url: string | null): AnalyticsSink {
  if (!url) return () => undefined;
  return (event) => {
    const body = JSON.stringify(event);
    if (typeof navigator !== 'undefined' && navigator.sendBeacon?.(url, new Blob([body], { type: 'application/json' })))
      return;
    void fetch(url, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'application/json' } }).catch(
      () => undefined,
    );
  };
}

/** The role claim from the identity profile, "user" when there is none. */
export function roleOf(profile: Record<string, unknown> | undefined, roleClaim: string): string {
  const role = profile?.[roleClaim];
  return typeof role === 'string' && role.trim() ? role : DEFAULT_ROLE;
}

/** Page views carry the path only: query and hash may hold personal data. */
export function createAnalytics(sink: AnalyticsSink, now: () => Date = () => new Date()) {
  let last: string | null = null;
  return {
    pageView(path: string, role: string) {
      const key = `${path}|${role}`;
      if (key === last) return;
      last = key;
      sink({ type: 'page_view', path, role, at: now().toISOString() });
    },
  };
}
export type Analytics = ReturnType<typeof createAnalytics>;
