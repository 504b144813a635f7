import { useEffect, useMemo } from 'react';
import { useAuth } from 'react-oidc-context';
import { useLocation } from 'react-router';
import { beaconSink, createAnalytics, roleOf } from '../lib/analytics.js';
import { useClientConfig } from '../lib/client-config-context.js';

/** One page view per route change, with the member's role claim; nothing is sent without a configured sink. */
export function PageViewReporter() {
  const { analyticsUrl, roleClaim } = useClientConfig();
  const analytics = useMemo(() => createAnalytics(beaconSink(analyticsUrl)), [analyticsUrl]);
  const { pathname } = useLocation();
  const auth = useAuth();
  const role = roleOf(auth.user?.profile, roleClaim);
  useEffect(() => {
    if (!auth.isLoading) analytics.pageView(pathname, role);
  }, [analytics, pathname, role, auth.isLoading]);
  return null;
}
