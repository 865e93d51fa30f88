/**
 * The operator commands of `npm run admin -- <command>` (product §27, docs/operations.md "Reports,
 * takedowns and suspension"), parsed with node:util parseArgs and run against a moderation service.
 * scripts/admin.ts opens the configured database and calls {@link runAdmin}; tests call it directly.
 *
 * Exit codes: 0 done, 1 refused (bad arguments, or the action was refused: not found, nothing to
 * change), 2 cannot run (bad configuration or database; scripts/admin.ts).
 */
import { parseArgs } from 'node:util';
import { AppError } from '../lib/errors';
import type { ModerationService } from '../modules/moderation/moderation.service';
import type { RefundsService } from '../modules/orders/refunds.service';

/**
 * What the dispute commands need ("This wasn't me", product.md): the refunds service (reports,
 * reversals) and the account service's sign-out. Built only when a dispute command runs (scripts/admin.ts builds the
 * app's services for it).
 */
export interface DisputeOps {
  refunds: Pick<RefundsService, 'openReports' | 'reverseReported' | 'dismissReport'>;
  revokeAllSessions(userId: string): Promise<number>;
}

export const ADMIN_USAGE = `Usage: npm run admin -- <command> [options]

  reports [--all] [--limit N]                      open reports (--all: every report), newest first
  report resolve <report_id> --reason "..." --by <operator>
  report dismiss <report_id> --reason "..." --by <operator>
  hide <collection_id> --reason "..." --by <operator> [--remove-files] [--report <report_id>]
  unhide <collection_id> --reason "..." --by <operator>
  suspend <user id, username or email> --reason "..." --by <operator>
  unsuspend <user id, username or email> --reason "..." --by <operator>
  audit [--limit N]                                the audit log, newest first (default 50)
  disputes [--limit N]                             open "This wasn't me" reports of purchases, oldest first
  dispute reverse <order_id> --reason "..." --by <operator> [--revoke-sessions]
                                                   refund the buyer from the sale's pending proceeds
                                                   (one ledger posting); --revoke-sessions signs the
                                                   buyer out everywhere
  dispute dismiss <order_id> --reason "..." --by <operator>
                                                   the sale stands; its proceeds clear as scheduled

Every action is written to the audit log with --by, the time and --reason. A takedown never deletes
stored files; --remove-files refuses their downloads to everyone until unhide.`;

export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}

const OPTIONS = {
  all: { type: 'boolean' },
  limit: { type: 'string' },
  reason: { type: 'string' },
  by: { type: 'string' },
  'remove-files': { type: 'boolean' },
  'revoke-sessions': { type: 'boolean' },
  report: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const iso = (d: Date | null | undefined) => (d ? d.toISOString().replace('.000Z', 'Z') : '-');

class UsageError extends Error {}

function limitOf(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new UsageError('--limit must be a whole number from 1 to 1000');
  return n;
}

function oneTarget(positionals: string[], what: string): string {
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError(`Give exactly one ${what}`);
  return positionals[0];
}

/**
 * Runs one admin command.
 * @param argv the arguments after `--` (e.g. `['hide', '<id>', '--reason', 'DMCA', '--by', 'ana']`)
 * @returns the exit code (0 done, 1 refused)
 */
export async function runAdmin(
  argv: string[],
  moderation: ModerationService,
  io: AdminIo,
  disputes?: () => Promise<DisputeOps>,
): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    const [command, ...rest] = positionals;
    if (values.help || !command || command === 'help') {
      io.out(ADMIN_USAGE);
      return command || values.help ? 0 : 1;
    }
    const op = { by: values.by ?? '', reason: values.reason ?? '' };
    const done = (row: { id: string; action: string; target: string; actor: string; at: Date; reason: string }) =>
      io.out(`${row.action} ${row.target} by ${row.actor} at ${iso(row.at)}: ${row.reason} (audit ${row.id})`);

    switch (command) {
      case 'reports': {
        if (rest.length) throw new UsageError('reports takes no arguments');
        const rows = await moderation.reports({ all: !!values.all, limit: limitOf(values.limit, 100) });
        if (!rows.length) {
          io.out(values.all ? 'No reports.' : 'No open reports.');
          return 0;
        }
        io.out(`${rows.length} ${values.all ? '' : 'open '}report(s), newest first:`);
        for (const r of rows) {
          io.out(
            `${r.id}  ${iso(r.createdAt)}  ${r.status}  ${r.reason}  collection ${r.collectionId} "${r.title}"` +
              `${r.hidden ? ' (hidden)' : ''}  by ${r.reporter}`,
          );
          if (r.details) io.out(`    ${r.details.replace(/\s+/g, ' ')}`);
          if (r.status !== 'open') io.out(`    ${r.status} by ${r.closedBy ?? '-'} at ${iso(r.closedAt)}`);
        }
        return 0;
      }
      case 'report': {
        const [verb, id, ...extra] = rest;
        if ((verb !== 'resolve' && verb !== 'dismiss') || !id || extra.length) {
          throw new UsageError('Use: report resolve <report_id> ... or report dismiss <report_id> ...');
        }
        done(await moderation.closeReport(id, verb === 'resolve' ? 'resolved' : 'dismissed', op));
        return 0;
      }
      case 'hide': {
        const id = oneTarget(rest, 'collection id');
        done(await moderation.hide(id, { ...op, removeFiles: !!values['remove-files'], reportId: values.report }));
        if (values['remove-files']) io.out('Downloads are refused to everyone; the stored files are kept.');
        return 0;
      }
      case 'unhide':
        done(await moderation.unhide(oneTarget(rest, 'collection id'), op));
        return 0;
      case 'suspend':
        done(await moderation.suspend(oneTarget(rest, 'user (id, username or email)'), op));
        return 0;
      case 'unsuspend':
        done(await moderation.unsuspend(oneTarget(rest, 'user (id, username or email)'), op));
        return 0;
      case 'audit': {
        if (rest.length) throw new UsageError('audit takes no arguments');
        const rows = await moderation.audit(limitOf(values.limit, 50));
        if (!rows.length) io.out('The audit log is empty.');
        for (const r of rows) {
          io.out(`${iso(r.at)}  ${r.actor}  ${r.action}  ${r.target}  ${r.reason}  ${JSON.stringify(r.details)}`);
        }
        return 0;
      }
      case 'disputes': {
        if (rest.length) throw new UsageError('disputes takes no arguments');
        if (!disputes) throw new UsageError('dispute commands are not available here');
        const rows = await (await disputes()).refunds.openReports(limitOf(values.limit, 100));
        if (!rows.length) {
          io.out('No open disputes.');
          return 0;
        }
        io.out(`${rows.length} open dispute(s), oldest first:`);
        for (const r of rows) {
          io.out(
            `${r.order.id}  reported ${iso(r.order.reportedAt)}  ${r.order.amount} points  "${r.title ?? '-'}"  ` +
              `buyer ${r.buyer}  seller ${r.seller}  paid ${iso(r.order.paidAt)}  clears ${iso(r.order.clearsAt)}`,
          );
          if (r.order.reportDetails) io.out(`    ${r.order.reportDetails.replace(/\s+/g, ' ')}`);
        }
        return 0;
      }
      case 'dispute': {
        const [verb, id, ...extra] = rest;
        if ((verb !== 'reverse' && verb !== 'dismiss') || !id || extra.length) {
          throw new UsageError('Use: dispute reverse <order_id> ... or dispute dismiss <order_id> ...');
        }
        if (!op.by.trim() || !op.reason.trim()) throw new UsageError('--reason and --by are required');
        if (!disputes) throw new UsageError('dispute commands are not available here');
        const ops = await disputes();
        if (verb === 'dismiss') {
          await ops.refunds.dismissReport(id);
          io.out(`dismissed the dispute of order ${id} by ${op.by}: ${op.reason} (the sale stands and clears as scheduled)`);
          return 0;
        }
        const { order, buyerId } = await ops.refunds.reverseReported(id, `${op.reason} (by ${op.by})`);
        io.out(`reversed order ${order.id} by ${op.by}: ${op.reason}; ${order.amount} points back to the buyer`);
        if (values['revoke-sessions']) {
          const n = await ops.revokeAllSessions(buyerId);
          io.out(`revoked ${n} session(s) of the buyer`);
        }
        return 0;
      }
      default:
        throw new UsageError(`Unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof AppError) {
      io.err(`Refused: ${err.message}`);
      return 1;
    }
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`${(err as Error).message}\n\n${ADMIN_USAGE}`);
      return 1;
    }
    throw err;
  }
}
