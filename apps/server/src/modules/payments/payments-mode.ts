/**
 * The payments mode a database was started with (docs/abuse.md, "Sandbox points").
 *
 * Points minted by the sandbox (`/api/dev/sandbox/pay`) are not backed by money, so they must never
 * become cashable through a real rail. The first start records `PAYMENTS` in the `database_facts`
 * table; a later start with real rails (`evm`, `tron`, `ton`, `nowpayments` or a list of them) on a database recorded as
 * `sandbox` — or the sandbox on a database recorded as real — is refused with one line saying why
 * and how to start fresh. Switching between real rails, or adding one, is allowed.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { databaseFacts } from '../../db/schema/index';

/** `PAYMENTS` as configured: `sandbox`, or real rails (`evm`, `tron`, `ton`, `nowpayments`, or a list such as `evm,tron`). */
export type PaymentsMode = string;

/** A start refused because of what the database holds; `message` is one line for the operator. */
export class StartupRefusal extends Error {
  override name = 'StartupRefusal';
}

const KEY = 'payments_mode';

/**
 * Records `mode` on first start, then checks it against the recorded one.
 * @returns the recorded mode
 * @throws StartupRefusal when a real provider meets a sandbox database or the reverse
 */
export async function checkPaymentsMode(db: Db, mode: PaymentsMode): Promise<PaymentsMode> {
  await db.insert(databaseFacts).values({ key: KEY, value: mode }).onConflictDoNothing();
  const [row] = await db.select({ value: databaseFacts.value }).from(databaseFacts).where(eq(databaseFacts.key, KEY));
  const recorded = (row?.value ?? mode) as PaymentsMode;
  if (recorded === 'sandbox' && mode !== 'sandbox') {
    throw new StartupRefusal(
      `PAYMENTS=${mode} refused: this database was started with PAYMENTS=sandbox and its balances are sandbox points, not money; start ${mode} on a fresh database (a new DATABASE_URL, or an empty DATA_DIR for the built-in one).`,
    );
  }
  if (recorded !== 'sandbox' && mode === 'sandbox') {
    throw new StartupRefusal(
      `PAYMENTS=sandbox refused: this database holds real payments (PAYMENTS=${recorded}) and sandbox points would become cashable; run the sandbox on a fresh database (a new DATABASE_URL, or an empty DATA_DIR).`,
    );
  }
  return recorded;
}
