import path from 'node:path';
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import { importBoundaries } from './eslint-import-boundaries.mjs';

RuleTester.describe = describe;
RuleTester.it = it;

const src = path.resolve(import.meta.dirname, '..', 'apps', 'web', 'src');
const at = (file: string) => path.join(src, file);
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2024, sourceType: 'module' } });

tester.run('import-boundaries', importBoundaries, {
  valid: [
    { filename: at('app/app-routes.tsx'), code: "import { RequireAuth } from '../features/auth/index.js';" },
    { filename: at('app/app-routes.tsx'), code: "const Area = () => import('../features/account/index.js');" },
    { filename: at('features/account/account-area.tsx'), code: "import { AppShell } from '../shell/index.js';" },
    {
      filename: at('features/admin/dashboard/overview.tsx'),
      code: "import { useMemberships } from '../memberships/api.js';",
    },
    {
      filename: at('features/admin/products/products-page.tsx'),
      code: "import { formatUsd } from '../../../lib/format.js';",
    },
    { filename: at('lib/error-text.ts'), code: "import { API_MESSAGES } from './messages.js';" },
    {
      filename: at('features/shell/app-shell.test.tsx'),
      code: "import { renderWithProviders } from '../../test/render.js';",
    },
    { filename: at('lib/format.ts'), code: "import { z } from 'zod';" },
  ],
  invalid: [
    {
      filename: at('features/account/account-area.tsx'),
      code: "import { AppShell } from '../shell/app-shell.js';",
      errors: [{ message: '../shell/app-shell.js: use features/shell only through features/shell/index.ts' }],
    },
    {
      filename: at('app/app-routes.tsx'),
      code: "const Console = () => import('../features/admin/admin-console.js');",
      errors: [
        { message: '../features/admin/admin-console.js: use features/admin only through features/admin/index.ts' },
      ],
    },
    {
      filename: at('features/shell/app-shell.tsx'),
      code: "import { lightTheme } from '../../app/app.js';",
      errors: [
        { message: '../../app/app.js: features may not import from app: move what they need into lib or config' },
      ],
    },
    {
      filename: at('lib/api-context.tsx'),
      code: "export { clearTokenEntries } from '../features/auth/index.js';",
      errors: [
        {
          message:
            '../features/auth/index.js: components, lib and config are shared: they may not import from features',
        },
      ],
    },
    {
      filename: at('components/banner.tsx'),
      code: "import { testConfig } from '../test/render.js';",
      errors: [{ message: '../test/render.js: only tests may use the test helpers in src/test' }],
    },
    {
      filename: at('features/auth/oidc-settings.ts'),
      code: "import { groupsOf } from '../../../../../packages/contracts/src/groups.js';",
      errors: [
        {
          message:
            '../../../../../packages/contracts/src/groups.js: import the shared package by its name (@ums/contracts), not by a relative path',
        },
      ],
    },
  ],
});
