export const OVERVIEW = {
  loading: 'Loading figures...',
  loadFailed: 'Failed to load data',
  figures: {
    memberships: 'Memberships',
    discountPackages: 'Discount Packages',
    products: 'Products',
    promotionalLinks: 'Promotional links',
  },
  mostPromoted: 'Most promoted products',
  nonePromoted: 'No product is promoted yet.',
  promotedBy: (n: number) => `${n} ${n === 1 ? 'membership' : 'memberships'}`,
  catalog: 'Catalog',
} as const;

/** The Overview's charts of the business (issue 38). */
export const METRICS_VIEW = {
  heading: 'The business',
  range: 'Range',
  ranges: { '30d': 'Last 30 days', '90d': 'Last 90 days', '12m': 'Last 12 months', custom: 'Custom range' },
  from: 'From',
  to: 'To',
  timeZone: (zone: string) => `Days are counted in the company's time zone, ${zone}.`,
  loadingChart: 'Loading...',
  loadFailed: 'The charts could not be loaded',
  headlines: {
    members: 'Members',
    activeSubscriptions: 'Active subscriptions',
    revenueThisMonth: 'Revenue this month',
  },
  since: (day: string) => `since ${day}`,
  sameDaysOf: (from: string, to: string) => `vs. ${from} to ${to}`,
  weekOf: (day: string) => `Week of ${day}`,
  on: (day: string) => `on ${day}`,
  inWeekOf: (day: string) => `in the week of ${day}`,
  in: (month: string) => `in ${month}`,
  charts: {
    members: 'Members over time',
    revenue: { day: 'Revenue per day', week: 'Revenue per week', month: 'Revenue per month' },
    signIns: 'Sign-ins per day',
  },
  series: {
    members: 'Members',
    newMembers: 'New members',
    revenue: 'Revenue (USD)',
    orders: 'Orders',
    succeeded: 'Succeeded',
    failed: 'Failed',
    newDevices: 'New devices',
  },
  period: { day: 'Day', week: 'Week', month: 'Month' },
  showTable: 'Show as table',
  downloadCsv: 'Download CSV',
  keys: 'Use the left and right arrow keys to read each point; Home and End go to the first and last.',
  point: (period: string, values: string) => `${period}: ${values}`,
  summaries: {
    members: (s: {
      from: string;
      to: string;
      before: string;
      after: string;
      joined: string;
      busiest: { day: string; joined: string } | null;
    }) =>
      `Members went from ${s.before} before ${s.from} to ${s.after} on ${s.to}, with ${s.joined} new members in the range` +
      (s.busiest ? `; the most in one day were ${s.busiest.joined} on ${s.busiest.day}.` : '.'),
    revenue: (s: {
      from: string;
      to: string;
      revenue: string;
      orders: string;
      best: { when: string; revenue: string } | null;
    }) =>
      `Revenue from ${s.from} to ${s.to} was ${s.revenue} from ${s.orders} orders` +
      (s.best ? `; the highest was ${s.best.revenue} ${s.best.when}.` : '.'),
    signIns: (s: {
      from: string;
      to: string;
      succeeded: string;
      failed: string;
      worst: { day: string; failed: string } | null;
    }) =>
      `From ${s.from} to ${s.to}, ${s.succeeded} sign-ins succeeded and ${s.failed} failed` +
      (s.worst ? `; the most failures in one day were ${s.worst.failed} on ${s.worst.day}.` : '.') +
      ' Sign-in activity is kept 90 days.',
  },
} as const;

export const DASHBOARD_TEXT = {
  title: 'User Management System',
  subtitle: 'Admin Dashboard',
  tabs: { overview: 'Overview', memberships: 'Memberships', discountPackages: 'Discount Packages' },
} as const;
