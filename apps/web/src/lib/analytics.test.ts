import { afterEach, describe, expect, it, vi } from 'vitest';
import { beaconSink, createAnalytics, roleOf, type PageView } from './analytics.js';

describe('analytics', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reports page views with the role claim, "user" by default, once per change', () => {
    const events: PageView[] = [];
    const analytics = createAnalytics(
      (e) => events.push(e),
      () => new Date('2026-01-02T03:04:05Z'),
    );
    analytics.pageView('/', roleOf({ 'custom:role': 'admin' }, 'custom:role'));
    analytics.pageView('/', roleOf({ 'custom:role': 'admin' }, 'custom:role'));
    analytics.pageView('/admin', roleOf({}, 'custom:role'));
    expect(events).toEqual([
      { type: 'page_view', path: '/', role: 'admin', at: '2026-01-02T03:04:05.000Z' },
      { type: 'page_view', path: '/admin', role: 'user', at: '2026-01-02T03:04:05.000Z' },
    ]);
  });

  it('sends nothing anywhere when no sink is configured', () => {
    const fetchSpy = vi.fn();
    const beacon = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    vi.stubGlobal('navigator', { sendBeacon: beacon });
    beaconSink(null)({ type: 'page_view', path: '/', role: 'user', at: '' });
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(beacon).not.toHaveBeenCalled();
  });

  it('sends each event to the configured address', () => {
    const beacon = vi.fn(() => true);
    vi.stubGlobal('navigator', { sendBeacon: beacon });
    beaconSink('https://analytics.example.com/e')({ type: 'page_view', path: '/x', role: 'user', at: '' });
    expect(beacon).toHaveBeenCalledWith('https://analytics.example.com/e', expect.any(Blob));
  });
});
