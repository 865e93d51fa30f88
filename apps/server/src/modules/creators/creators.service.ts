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
import type { CreatorDetail } from '@coffer/contract';
import { errors } from '../../lib/errors';
import type { ProfileService } from '../account/profile.service';
import type { CollectionsService } from '../collections/collections.service';

export interface CreatorsDeps {
  /** The creator's public face, when the public may see their page (the account module's). */
  profile: Pick<ProfileService, 'listedCreator'>;
  /**
   * The creator's published collections (the same page as `user/collections`) and their rating
   * over every collection they own (the collections module's).
   */
  collections: Pick<CollectionsService, 'ofUser' | 'ratingTotalsOf'>;
}

/** The creators module holds no table of its own: it reads through the account and collections services. */
export function createCreatorsService(deps: CreatorsDeps) {
  const { profile, collections } = deps;

  return {
    /**
     * The creator page of `userId`: `creator`, `rating_sum` and `rating_count` (whole stars and
     * reviews, see the module rules) and page `paginator.page` (from 0) of `paginator.size` of their
     * published collections with the paging fields.
     * @throws NOT_FOUND when the user does not exist, deleted their account or is suspended
     */
    async detail(userId: string, paginator: { page: number; size: number }): Promise<CreatorDetail> {
      const creator = await profile.listedCreator(userId);
      if (!creator) throw errors.notFound('This creator does not exist');
      const [page, rating] = await Promise.all([collections.ofUser(userId, paginator), collections.ratingTotalsOf(userId)]);
      return { ...page, creator, rating_sum: rating.sum, rating_count: rating.count };
    },
  };
}

export type CreatorsService = ReturnType<typeof createCreatorsService>;
