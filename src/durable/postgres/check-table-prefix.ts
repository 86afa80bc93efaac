import { ConfigurationError } from '../../index.js';

/** The table prefix used when none is given: tables are `affordance_sessions`, `affordance_migrations`... */
export const defaultTablePrefix = 'affordance_';

const tablePrefixPattern = /^[a-z_][a-z0-9_]{0,40}$/;

/**
 * Returns `prefix` (or {@link defaultTablePrefix} when `undefined`) after
 * checking that it can start an unquoted PostgreSQL table name; throws a
 * `ConfigurationError` naming `subject` (e.g. `PostgresSessionStore option
 * tablePrefix`) otherwise.
 */
export function checkTablePrefix(prefix: string | undefined, subject: string): string {
  const chosen = prefix ?? defaultTablePrefix;
  if (tablePrefixPattern.test(chosen)) return chosen;
  throw new ConfigurationError({
    subject,
    problem: `${JSON.stringify(chosen)} is not a usable table prefix: it must match ${String(tablePrefixPattern)} (a lower-case letter or underscore, then up to 40 lower-case letters, digits or underscores).`,
    fix: `Pass a prefix such as "myapp_" or leave the prefix out to use "${defaultTablePrefix}"; use the same prefix for applyPostgresMigrations and PostgresSessionStore.`,
  });
}
