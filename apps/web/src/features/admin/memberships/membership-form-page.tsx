import { Button, Field, Input, makeStyles, Text, Textarea, tokens } from '@fluentui/react-components';
import { Spinner } from '../../../components/spinner.js';
import { ArrowLeftRegular } from '../components/icons.js';
import type { Membership } from '@ums/contracts';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ErrorBanner } from '../../../components/error-banner.js';
import { adminPaths } from '../admin-paths.js';
import { errorText } from '../../../lib/error-text.js';
import { formatUsd } from '../../../lib/format.js';
import { useAdminStyles } from '../components/admin-styles.js';
import { useDiscountPackageList } from '../discount-packages/api.js';
import { DISCOUNT_PACKAGES } from '../discount-packages/messages.js';
import { PagedChoice, type Choice } from '../components/paged-choice.js';
import { ProductPicker } from '../components/product-picker.js';
import { useProductList } from '../products/api.js';
import { PRODUCTS } from '../products/messages.js';
import { useMembership, useSaveMembership } from './api.js';
import { formFailure } from '../../../lib/field-errors.js';
import {
  MEMBERSHIP_API_FIELDS,
  toDraft,
  toInput,
  validate,
  type MembershipDraft,
  type MembershipErrors,
} from './form-state.js';
import { MEMBERSHIPS as T } from './messages.js';
import { MembershipSaveError, type SavedState } from './save-membership.js';

const useStyles = makeStyles({
  form: { display: 'grid', gap: tokens.spacingVerticalL, maxWidth: '720px' },
  row: {
    display: 'grid',
    gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
    gap: tokens.spacingHorizontalL,
    '@media (max-width: 600px)': { gridTemplateColumns: '1fr' },
  },
  legend: { fontWeight: tokens.fontWeightSemibold, paddingInline: tokens.spacingHorizontalXS },
  fieldset: { border: 'none', margin: 0, padding: 0, display: 'grid', gap: tokens.spacingVerticalS },
  actions: { display: 'flex', gap: tokens.spacingHorizontalM },
});

/** /admin/memberships/new and /admin/memberships/:id */
export function MembershipFormPage() {
  const { membershipId } = useParams();
  const id = membershipId && membershipId !== 'new' ? Number(membershipId) : null;
  const membership = useMembership(id);
  const styles = useAdminStyles();

  if (id !== null && Number.isNaN(id)) return <ErrorBanner message={T.loadDataFailed} />;
  if (membership.isError) {
    return <ErrorBanner message={errorText(membership.error, T.loadDataFailed)} error={membership.error} />;
  }
  if (id !== null && membership.isPending) return <Spinner label={T.loading} />;
  return (
    <div className={styles.page}>
      <MembershipForm key={id ?? 'new'} membership={id !== null ? (membership.data ?? null) : null} />
    </div>
  );
}

const productChoice = (product: { productId: number; name: string; retailPrice: number }): Choice => ({
  value: String(product.productId),
  label: `${product.name} (${formatUsd(product.retailPrice)})`,
});

/** Product*: the catalog searched and paged (options show name and retail price, SPEC section 2). */
function ProductChoice({
  membership,
  value,
  error,
  onChange,
}: {
  membership: Membership | null;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const [q, setQ] = useState('');
  const list = useProductList({ q, sort: '' });
  return (
    <PagedChoice
      label={T.fields.product}
      required
      validationMessage={error}
      searchLabel={PRODUCTS.search}
      texts={{ loading: PRODUCTS.loading, loadFailed: T.loadDataFailed }}
      list={list}
      q={q}
      onSearch={setQ}
      choiceOf={productChoice}
      value={value}
      initial={
        membership
          ? productChoice({
              productId: membership.productId,
              name: membership.productName,
              retailPrice: membership.productRetailPrice,
            })
          : null
      }
      onChange={onChange}
    />
  );
}

/** Discount Package: optional ("None"), the packages searched and paged. */
function PackageChoice({
  membership,
  value,
  error,
  onChange,
}: {
  membership: Membership | null;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const [q, setQ] = useState('');
  const list = useDiscountPackageList({ q, sort: '' });
  return (
    <PagedChoice
      label={T.fields.discountPackage}
      validationMessage={error}
      searchLabel={DISCOUNT_PACKAGES.search}
      texts={{ loading: DISCOUNT_PACKAGES.loading, loadFailed: T.loadDataFailed }}
      list={list}
      q={q}
      onSearch={setQ}
      choiceOf={(pkg) => ({ value: String(pkg.discountPackageId), label: pkg.name })}
      value={value}
      initial={
        membership?.discountPackageId
          ? { value: String(membership.discountPackageId), label: membership.discountPackageName ?? '' }
          : null
      }
      none={T.none}
      onChange={onChange}
    />
  );
}

function MembershipForm({ membership }: { membership: Membership | null }) {
  const styles = useStyles();
  const admin = useAdminStyles();
  const navigate = useNavigate();
  const save = useSaveMembership();
  const [draft, setDraft] = useState<MembershipDraft>(() => toDraft(membership));
  const [errors, setErrors] = useState<MembershipErrors>({});
  const [saved, setSaved] = useState<SavedState>({
    membershipId: membership?.membershipId ?? null,
    promotional: membership?.promotionalProducts.map((p) => p.productId) ?? [],
  });
  const saving = save.isPending;
  const set = <K extends keyof MembershipDraft>(key: K, value: MembershipDraft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const selected = new Set(draft.promotional);
  const back = () => navigate(adminPaths.memberships);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate(draft);
    setErrors(found);
    if (Object.keys(found).length > 0 || saving) return;
    save.mutate(
      { saved, input: toInput(draft), selected: draft.promotional },
      {
        onSuccess: () => void back(),
        // What reached the server before the failure is not sent again by the next Save.
        onError: (error) => {
          if (error instanceof MembershipSaveError) setSaved(error.saved);
        },
      },
    );
  };
  const failure = save.isError ? saveFailure(save.error) : null;
  const problem = (field: keyof MembershipErrors) => errors[field] ?? failure?.fields[field];

  const toggle = (productId: number, checked: boolean) =>
    set('promotional', checked ? [...draft.promotional, productId] : draft.promotional.filter((p) => p !== productId));

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <div>
        <Button appearance="subtle" icon={<ArrowLeftRegular />} onClick={back}>
          {T.back}
        </Button>
      </div>
      <h1 className={admin.title}>{membership ? T.editTitle : T.newTitle}</h1>
      {failure ? (
        <ErrorBanner
          message={failure.banner}
          error={save.error instanceof MembershipSaveError ? save.error.failure : save.error}
        />
      ) : null}
      <Field label={T.fields.name} required validationMessage={problem('name')}>
        <Input value={draft.name} onChange={(_, data) => set('name', data.value)} />
      </Field>
      <Field label={T.fields.description} validationMessage={problem('description')}>
        <Textarea value={draft.description} onChange={(_, data) => set('description', data.value)} resize="vertical" />
      </Field>
      <div className={styles.row}>
        <ProductChoice
          membership={membership}
          value={draft.productId}
          error={problem('productId')}
          onChange={(value) => set('productId', value)}
        />
        <PackageChoice
          membership={membership}
          value={draft.discountPackageId}
          error={problem('discountPackageId')}
          onChange={(value) => set('discountPackageId', value)}
        />
        <Field label={T.fields.freeItems} validationMessage={problem('freeItems')}>
          <Input type="number" min={0} value={draft.freeItems} onChange={(_, data) => set('freeItems', data.value)} />
        </Field>
        <Field
          label={T.fields.length}
          required
          hint="1-120; anything else is saved as 12"
          validationMessage={problem('length')}
        >
          <Input
            type="number"
            min={1}
            max={120}
            value={draft.length}
            onChange={(_, data) => set('length', data.value)}
          />
        </Field>
      </div>
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>{T.promotionalProducts}</legend>
        <Text>{T.selected(draft.promotional.length)}</Text>
        <ProductPicker
          label={T.promotionalProducts}
          selected={selected}
          onToggle={(product, checked) => toggle(product.productId, checked)}
        />
      </fieldset>
      <div className={styles.actions}>
        <Button appearance="primary" type="submit" disabled={saving}>
          {saving ? T.saving : T.save}
        </Button>
      </div>
    </form>
  );
}

/**
 * A failed save: the server's word on the membership's fields under those fields, and in the banner what else
 * failed and whether the membership itself was saved (then only its promotional products failed).
 */
function saveFailure(error: Error): { fields: MembershipErrors; banner: string } {
  if (!(error instanceof MembershipSaveError)) return formFailure(error, MEMBERSHIP_API_FIELDS, T.saveFailed);
  if (!error.membershipSaved) return formFailure(error.failure, MEMBERSHIP_API_FIELDS, T.saveFailed);
  return { fields: {}, banner: T.partialSave(errorText(error.failure, T.saveFailed)) };
}
