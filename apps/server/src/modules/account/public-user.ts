/**
 * A user's public face (contract `PublicUser`: id, username, nickname, avatar URL or '', created_at
 * in ms) from any row that carries those columns: the one mapping behind `profile`, sellers on
 * collections and the creator page.
 */
import type { PublicUser } from '@coffer/contract';

/** The columns a public face is made of (a users row, or a seller joined to a collection). */
export interface PublicUserColumns {
  id: string;
  username: string;
  nickname: string;
  avatar: string | null;
  createdAt: Date;
}

/** @param avatarUrl stored avatar value -> URL (the account service's); '' when none is stored */
export function toPublicUser(row: PublicUserColumns, avatarUrl: (stored: string) => string): PublicUser {
  return {
    id: row.id,
    username: row.username,
    nickname: row.nickname,
    avatar: row.avatar ? avatarUrl(row.avatar) : '',
    created_at: row.createdAt.getTime(),
  };
}
