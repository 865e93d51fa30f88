-- The platform ledger accounts exist from the start (DESIGN 4), so that no posting ever creates one
-- inside its own transaction: the ledger caches platform account ids, and an id created by a
-- transaction that later rolled back (e.g. the first fee of a purchase refused for insufficient
-- balance) or that had not committed yet would be reused by other postings.
INSERT INTO "ledger_accounts" ("id", "user_id", "kind") VALUES
  ('00000000-0000-7000-8000-000000000001', NULL, 'deposits'),
  ('00000000-0000-7000-8000-000000000002', NULL, 'withdrawals'),
  ('00000000-0000-7000-8000-000000000003', NULL, 'fees')
ON CONFLICT DO NOTHING;
