import { sql, type SQLWrapper } from 'drizzle-orm';

/**
 * The fewest digits in a row a search looks up by `searchDigitRuns` (decision 047): the function of migration 0026
 * keeps runs and suffixes of this many digits or more, and a search with a shorter run goes to the trigram index.
 */
export const DIGIT_RUN_MIN = 5;

/** The digits `search_digit_runs` keeps of each suffix: a longer run is looked up by its first ones. */
export const DIGIT_LEXEME_MAX = 32;

/**
 * `search_digit_runs(text)` (migration 0026): every run of 5 or more ASCII digits in the text with each of its
 * suffixes of 5 or more, cut to their first 32 digits, as a tsvector's lexemes. A GIN index of it finds the rows
 * holding a given run of 5 digits or more wherever it stands inside a longer one, by a prefix query (`'23456':*`
 * finds "1234567").
 */
export const searchDigitRuns = (text: SQLWrapper) => sql`search_digit_runs(${text})`;
