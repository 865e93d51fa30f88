/**
 * The public creator page (`creator/detail`): a seller's name, avatar, rating and published
 * collections, readable signed out. The account's own `/profile` calls are untouched.
 *
 * Rules:
 * - the page exists for a user who exists, has not deleted their account and is not suspended
 *   (product §27); for anyone else it answers NOT_FOUND, so a suspended seller's page leaves the
 *   web with their collections;
 * - the collections are the ones `user/collections` lists: Published, not taken down, newest first,
 *   as a page (product §3 Pagination);
 * - the rating sums the counted reviews (1-5 stars; refunded ones left out, product §29) of every
 *   collection the user owns, unpublished, deleted and taken-down ones included: hiding a poorly
 *   rated collection does not lift the seller's rating.
 */
import type { CreatorDetail, PublicUser } from '@coffer/contract';
import type { Db } from '../../db/client';
import { errors } from '../../lib/errors';
import { toPublicUser } from '../account/public-user';
import type { CollectionsService } from '../collections/collections.service';
import * as repo from './creators.repository';

export interface CreatorsDeps {
  db: Db;
  /** Reads the creator's published collections (the same page as `user/collections`). */
  collections: Pick<CollectionsService, 'ofUser'>;
  /** Stored avatar value -> URL (as the account service answers it). */
  avatarUrl: (stored: string) => string;
}

export function createCreatorsService(deps: CreatorsDeps) {
  const { db, collections } = deps;

  const publicUser = (row: repo.CreatorRow): PublicUser => toPublicUser(row, deps.avatarUrl);

  return {
    /**
     * The creator page of `userId`: `creator`, `rating_sum` and `rating_count` (whole stars and
     * reviews, see the module rules) and page `paginator.page` (from 0) of `paginator.size` of their
     * published collections with the paging fields.
     * @throws NOT_FOUND when the user does not exist, deleted their account or is suspended
     */
    async detail(userId: string, paginator: { page: number; size: number }): Promise<CreatorDetail> {
      const creator = await repo.findListableCreator(db, userId);
      if (!creator) throw errors.notFound('This creator does not exist');
      const [page, rating] = await Promise.all([collections.ofUser(userId, paginator), repo.ratingTotalsOf(db, userId)]);
      return { ...page, creator: publicUser(creator), rating_sum: rating.sum, rating_count: rating.count };
    },
  };
}

export type CreatorsService = ReturnType<typeof createCreatorsService>;
