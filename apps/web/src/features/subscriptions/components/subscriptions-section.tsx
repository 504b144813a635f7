import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { Spinner } from '../../../components/spinner.js';
import { BoxRegular, DeleteRegular } from '@fluentui/react-icons';
import type { Subscription } from '@ums/contracts';
import { lazy, Suspense, useDeferredValue, useState } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { useSectionStyles } from '../../../components/section-styles.js';
import { errorText } from '../../../lib/error-text.js';
import { useDeleteSubscription, useSubscriptions } from '../api/subscriptions.js';
import { priceLine, subscriptionName, SUBSCRIPTIONS as T } from '../messages.js';

// Fetched on the first delete: dialogs are not part of the account page's first load.
const DeleteSubscriptionDialog = lazy(() =>
  import('./delete-subscription-dialog.js').then((m) => ({ default: m.DeleteSubscriptionDialog })),
);

const useStyles = makeStyles({
  grid: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
    gap: tokens.spacingHorizontalL,
  },
  card: {
    display: 'grid',
    gridTemplateColumns: '64px 1fr auto',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalM,
  },
  image: { width: '64px', height: '64px', objectFit: 'contain', borderRadius: tokens.borderRadiusMedium },
  placeholder: {
    width: '64px',
    height: '64px',
    display: 'grid',
    placeItems: 'center',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
    fontSize: '28px',
  },
  name: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
});

function SubscriptionCard({ subscription, onDelete }: { subscription: Subscription; onDelete: () => void }) {
  const styles = useStyles();
  const section = useSectionStyles();
  const name = subscriptionName(subscription);
  const image = subscription.products.find((p) => p.imageUrl)?.imageUrl;
  return (
    <div className={mergeClasses(section.outlined, styles.card)}>
      {image ? (
        <img src={image} alt="" className={styles.image} />
      ) : (
        <span className={styles.placeholder} role="img" aria-label={T.noImage}>
          <BoxRegular />
        </span>
      )}
      <div>
        <p className={mergeClasses(section.message, styles.name)}>{name}</p>
        <p className={section.message}>{priceLine(subscription)}</p>
      </div>
      <Button appearance="subtle" icon={<DeleteRegular />} aria-label={T.deleteLabel(name)} onClick={onDelete} />
    </div>
  );
}

export function SubscriptionsSection() {
  const section = useSectionStyles();
  const styles = useStyles();
  // The cards render in the background when the list arrives (see the payment history).
  const subscriptions = useDeferredValue(useSubscriptions());
  const remove = useDeleteSubscription();
  const [pending, setPending] = useState<Subscription | null>(null);
  // Once shown, the dialog stays mounted so its closing animation can finish.
  const [used, setUsed] = useState(false);
  const ask = (subscription: Subscription) => {
    setUsed(true);
    setPending(subscription);
  };

  const confirm = () => {
    if (!pending) return;
    remove.mutate(pending.subscriptionId, { onSettled: () => setPending(null) });
  };

  let body;
  if (subscriptions.isPending) body = <Spinner label={T.loading} />;
  else if (subscriptions.isError)
    body = <ErrorBanner message={errorText(subscriptions.error, T.loadFailed)} error={subscriptions.error} />;
  else if (subscriptions.data.length === 0) body = <p className={section.message}>{T.empty}</p>;
  else
    body = (
      <ul className={styles.grid} aria-label={T.title}>
        {subscriptions.data.map((subscription) => (
          <li key={subscription.subscriptionId}>
            <SubscriptionCard subscription={subscription} onDelete={() => ask(subscription)} />
          </li>
        ))}
      </ul>
    );

  return (
    <div className={section.card}>
      <p className={section.subtitle}>{T.subtitle}</p>
      {remove.isError ? <ErrorBanner message={errorText(remove.error, T.deleteFailed)} error={remove.error} /> : null}
      {body}
      {used ? (
        <Suspense fallback={null}>
          <DeleteSubscriptionDialog
            open={pending !== null}
            busy={remove.isPending}
            onCancel={() => setPending(null)}
            onConfirm={confirm}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
