import { createFluentIcon } from '@fluentui/react-icons';

// Icons only the admin console shows, made here from Fluent's own path data: imported from the icon package, they
// share one of its internal modules with icons of the account page and were shipped to every member with it.

export const ArrowLeftRegular = createFluentIcon('ArrowLeftRegular', '1em', [
  'M9.16 16.87a.5.5 0 1 0 .67-.74L3.67 10.5H17.5a.5.5 0 0 0 0-1H3.67l6.16-5.63a.5.5 0 0 0-.67-.74L2.24 9.44a.75.75 0 0 0 0 1.11z',
]);

export const ArrowSyncRegular = createFluentIcon(
  'ArrowSyncRegular',
  '1em',
  [
    'M11.41 3.64a.5.5 0 0 0 0-.71L9.3.8a.5.5 0 0 0-.7.7l1 1a7.5 7.5 0 0 0-4.08 13.5.5.5 0 0 0 .6-.8A6.5 6.5 0 0 1 10.14 3.5L8.59 5.04a.5.5 0 0 0 .7.7zM8.6 16.36a.5.5 0 0 0 0 .71l2.12 2.12a.5.5 0 0 0 .7-.7l-1-1a7.5 7.5 0 0 0 4.07-13.5.5.5 0 1 0-.59.8q.37.28.7.61a6.5 6.5 0 0 1-4.73 11.1l1.55-1.55a.5.5 0 1 0-.7-.7z',
  ],
  { flipInRtl: true },
);
