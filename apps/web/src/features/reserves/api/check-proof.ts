/**
 * "Check my balance" (product §22): fetches the caller's inclusion proof (POST
 * /api/uc/v1/reserves/proof) and verifies it here, in the browser, with the contract's Merkle sum
 * code against the publication the page shows — the server's word is not taken for it.
 */
import type { Publication, ReservesProofData } from '@coffer/contract';
import { verifyWireProof } from '@coffer/contract/merkle-sum';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';

/** The outcome of a check: `included` only when the proof verifies against the shown publication. */
export interface ProofCheck {
  included: boolean;
  /** The balance the shares add up to (points, 2 decimals). */
  balance: string;
  /** How many shares (leaves) the balance is split into. */
  shares: number;
  proof: ReservesProofData;
}

/**
 * True when `proof` is the signed-in user's (`userId`), belongs to `publication` (same id, root and
 * total), every share's path leads from its leaf to that root with that sum, and the shares add up
 * to the balance (docs/decisions/0048-private-liability-proofs.md).
 */
export function proofMatches(proof: ReservesProofData, publication: Publication, userId: string): boolean {
  return (
    proof.user_id === userId &&
    proof.publication_id === publication.id &&
    proof.root_hash === publication.root_hash &&
    proof.total === publication.total &&
    verifyWireProof(proof)
  );
}

/**
 * @throws ApiError when the call fails (NOT_FOUND: nothing published, or the user signed up after the publication)
 */
export async function checkProof({ publication, userId }: { publication: Publication; userId: string }): Promise<ProofCheck> {
  const proof = await callApi('reservesProof', {});
  return { included: proofMatches(proof, publication, userId), balance: proof.balance, shares: proof.shares.length, proof };
}

export function useCheckProof() {
  return useMutation({ mutationFn: checkProof });
}
