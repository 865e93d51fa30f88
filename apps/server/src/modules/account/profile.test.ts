import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index';
import { localBus } from '../../lib/shared-state';
import { createTestApp, createUser, md5, PASSWORD, type TestApp } from '../../test/harness';
import { createCredentials } from './credentials';
import { createProfileService } from './profile.service';
import { createSessionsService } from './sessions.service';
import { createTwoFactorService } from './two-factor.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The account services of one instance, on `bus`, built in services.ts's order. */
function instance(bus = localBus()) {
  const db = t.app.ctx.database.db;
  const credentials = createCredentials({ db, clock: t.clock });
  const twoFactor = createTwoFactorService({ db, clock: t.clock, credentials });
  const sessions = createSessionsService({ db, clock: t.clock, sessionTtlHours: 1, credentials, twoFactor, revocations: bus });
  const profile = createProfileService({ db, clock: t.clock, ledger: t.app.ctx.services.ledger, credentials, sessions });
  return { bus, sessions, profile };
}

/** Renames the user behind every cache, as another instance's `account/change` would. */
async function renameInDatabase(userId: string, nickname: string) {
  await t.app.ctx.database.db.update(users).set({ nickname }).where(eq(users.id, userId));
}

describe("get/me's user-row cache", () => {
  it('serves the row read earlier until the TTL, and forgets it on a user revocation from another instance', async () => {
    const user = await createUser(t, { nickname: 'First' });
    const here = instance();
    expect((await here.profile.me(user.id)).nickname).toBe('First');
    await renameInDatabase(user.id, 'Second');
    expect((await here.profile.me(user.id)).nickname).toBe('First');
    // Another instance on the same bus signs the user out everywhere.
    await here.bus.publish({ kind: 'user', userId: user.id });
    expect((await here.profile.me(user.id)).nickname).toBe('Second');
  });

  it("forgets the row at once on this instance's own broadcast, and not on a session revocation", async () => {
    const user = await createUser(t, { nickname: 'Before' });
    // A bus that never delivers: only the instance's own broadcast can empty the cache.
    const here = instance({ publish: async () => undefined, subscribe: () => undefined, close: async () => undefined });
    expect((await here.profile.me(user.id)).nickname).toBe('Before');
    await renameInDatabase(user.id, 'After');
    await here.sessions.broadcast({ kind: 'session', sessionId: 'some-session' });
    expect((await here.profile.me(user.id)).nickname).toBe('Before');
    await here.sessions.broadcast({ kind: 'user', userId: user.id });
    expect((await here.profile.me(user.id)).nickname).toBe('After');
  });

  it('forgets the row when the account is deleted', async () => {
    const user = await createUser(t);
    const here = instance();
    await here.profile.me(user.id);
    await here.profile.deleteAccount(user.id, md5(PASSWORD));
    await expect(here.profile.me(user.id)).rejects.toMatchObject({ reason: 'NOT_FOUND', message: 'Record does not exist' });
  });
});
