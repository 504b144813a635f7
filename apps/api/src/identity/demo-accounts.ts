import { randomBytes } from 'node:crypto';
import { passwordProblems } from '@ums/contracts';
import { DEMO_MEMBER_SUBJECT } from '../seed/demo-data.js';
import type { AccountService } from './accounts.service.js';

export const DEMO_ADMIN_EMAIL = 'admin@example.com';
export const DEMO_MEMBER_EMAIL = 'member@example.com';

/** A random password that meets the policy. */
export function generatePassword(): string {
  for (;;) {
    const candidate = `Ums-${randomBytes(12).toString('base64url')}7a`;
    if (passwordProblems(candidate).length === 0) return candidate;
  }
}

/** Creates the demo admin and member on an empty account store; answers the sign-in details to print once. */
export async function createDemoAccounts(
  accounts: AccountService,
  passwords: { admin: string | undefined; member: string | undefined },
): Promise<{ email: string; password: string; admin: boolean }[] | null> {
  if (await accounts.hasAny()) return null;
  const admin = passwords.admin ?? generatePassword();
  const member = passwords.member ?? generatePassword();
  await accounts.add({ email: DEMO_ADMIN_EMAIL, password: admin, admin: true, firstName: 'Alex', lastName: 'Admin' });
  await accounts.add({
    email: DEMO_MEMBER_EMAIL,
    password: member,
    firstName: 'Morgan',
    lastName: 'Lee',
    accountId: DEMO_MEMBER_SUBJECT,
  });
  return [
    { email: DEMO_ADMIN_EMAIL, password: admin, admin: true },
    { email: DEMO_MEMBER_EMAIL, password: member, admin: false },
  ];
}
