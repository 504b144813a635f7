import { Field, FieldContextProvider, makeStyles, Radio, RadioGroup, Text, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { ErrorBanner } from '../../../components/error-banner.js';
import { DelayedSearchBox, LoadMore } from '../../../components/list-controls.js';
import { LIST_TEXT } from '../../../components/messages.js';
import { Spinner } from '../../../components/spinner.js';
import { PROMOTIONAL_LIST_MAX_HEIGHT } from '../../../config/layout.js';
import { errorText } from '../../../lib/error-text.js';
import type { PagedList } from '../../../lib/paged-list.js';

const useStyles = makeStyles({
  picker: { display: 'grid', gap: tokens.spacingVerticalS },
  options: { maxHeight: `${PROMOTIONAL_LIST_MAX_HEIGHT}px`, overflowY: 'auto', flexWrap: 'nowrap' },
});

/** One option: the value the form keeps and what a person reads. */
export interface Choice {
  value: string;
  label: string;
}

export interface PagedChoiceProps<T> {
  label: string;
  required?: boolean;
  /** The field's error (a rule the browser checks, or the server's word on this field). */
  validationMessage?: string;
  searchLabel: string;
  texts: { loading: string; loadFailed: string };
  /** The options' list, read a page at a time with the search the box reports through `onSearch`. */
  list: Pick<
    PagedList<T>,
    | 'rows'
    | 'total'
    | 'totalAtLeast'
    | 'isPending'
    | 'isError'
    | 'error'
    | 'hasNextPage'
    | 'isFetchingNextPage'
    | 'fetchNextPage'
  >;
  q: string;
  onSearch: (q: string) => void;
  choiceOf: (item: T) => Choice;
  /** The chosen value ("" for none). */
  value: string;
  /** What was chosen before (when the form opened); shown even when it is not on the pages loaded so far. */
  initial?: Choice | null;
  /** The option meaning "none" (value ""), when the choice is optional. */
  none?: string;
  onChange: (value: string) => void;
}

/**
 * One item chosen from a list that may be long (the catalog, the memberships): a search box, the matching items as
 * radio buttons a page at a time, and "Load more". The chosen item stays listed while other searches are shown.
 */
export function PagedChoice<T>({
  label,
  required,
  validationMessage,
  searchLabel,
  texts,
  list,
  q,
  onSearch,
  choiceOf,
  value,
  initial = null,
  none,
  onChange,
}: PagedChoiceProps<T>) {
  const styles = useStyles();
  const [picked, setPicked] = useState<Choice | null>(null);
  const choices = list.rows.map(choiceOf);
  const chosen = picked?.value === value ? picked : initial?.value === value ? initial : null;
  const kept = chosen && !choices.some((c) => c.value === value) ? chosen : null;
  const choose = (next: string) => {
    setPicked(choices.find((c) => c.value === next) ?? (kept?.value === next ? kept : null));
    onChange(next);
  };
  return (
    <Field label={label} required={required} validationMessage={validationMessage}>
      <div className={styles.picker}>
        {/* The search box is not the field's control: the radio group is (its label, its messages). */}
        <FieldContextProvider value={undefined}>
          <DelayedSearchBox label={searchLabel} onSearch={onSearch} />
        </FieldContextProvider>
        {list.isPending ? (
          <Spinner size="tiny" label={texts.loading} />
        ) : list.isError ? (
          <ErrorBanner message={errorText(list.error, texts.loadFailed)} error={list.error} />
        ) : (
          <>
            <RadioGroup className={styles.options} value={value} onChange={(_, data) => choose(data.value)}>
              {none === undefined ? null : <Radio value="" label={none} />}
              {kept ? <Radio value={kept.value} label={kept.label} /> : null}
              {choices.map((choice) => (
                <Radio key={choice.value} value={choice.value} label={choice.label} />
              ))}
            </RadioGroup>
            {choices.length === 0 && q ? <Text>{LIST_TEXT.noMatch(q)}</Text> : null}
            <LoadMore list={list} />
          </>
        )}
      </div>
    </Field>
  );
}
