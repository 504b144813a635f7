import { Link } from '@fluentui/react-components';
import { EMAIL_CHANGE_TEXTS as T } from '@ums/contracts/self-service/email-change';

/** Another provider's own page for changing the address (Cognito's, say): the app only leads there. */
export function ChangeEmailLink({ href }: { href: string }) {
  return <Link href={href}>{T.edit}</Link>;
}
