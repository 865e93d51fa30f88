/**
 * Account changes: nickname and avatar (POST /api/uc/v1/account/change {nickname?, avatar?} ->
 * the user), and the avatar upload (POST account/avatar/url {content_type, size} -> {url,
 * avatar, expires_at}; PUT the file to the presigned URL; then change {avatar}).
 */
import type { User } from '@coffer/contract';
import { IMAGE_CONTENT_TYPES, IMAGE_MAX_BYTES, isImageContentType } from '@coffer/contract/constants';
import { useMutation } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { callApi, toastError } from '@/lib/api-client';

export function changeAccount(input: { nickname?: string; avatar?: string }): Promise<User> {
  return callApi('accountChange', input);
}

/** Why `file` cannot be an avatar, or null. Mirrors the server's limits (PNG, JPEG, WebP or GIF; 5 MB). */
export function avatarFileError(file: File): string | null {
  if (!(IMAGE_CONTENT_TYPES as readonly string[]).includes(file.type)) return 'Images must be PNG, JPEG, WebP or GIF';
  if (file.size === 0) return 'The image is empty';
  if (file.size > IMAGE_MAX_BYTES) return 'Images must be 5 MB or smaller';
  return null;
}

/**
 * Uploads an avatar and saves it on the account.
 * @throws Error on a bad file, ApiError from the calls, Error('Upload failed (<status>)') when the PUT fails
 */
export async function uploadAvatar(file: File): Promise<User> {
  const problem = avatarFileError(file);
  if (problem || !isImageContentType(file.type)) throw new Error(problem ?? 'Images must be PNG, JPEG, WebP or GIF');
  const target = await callApi('avatarUrl', {
    content_type: file.type,
    size: file.size,
  });
  const put = await fetch(target.url, { method: 'PUT', headers: { 'Content-Type': file.type }, body: file });
  if (!put.ok) throw new Error(`Upload failed (${put.status})`);
  return changeAccount({ avatar: target.avatar });
}

export function useChangeNickname({ onSuccess }: { onSuccess?: (user: User) => void } = {}) {
  return useMutation({
    mutationFn: (nickname: string) => changeAccount({ nickname: nickname.trim() }),
    onSuccess: (user) => {
      toast.success('Nickname updated');
      onSuccess?.(user);
    },
    onError: (err) => toastError(err, 'Failed to update nickname'),
  });
}

export function useUploadAvatar({ onSuccess }: { onSuccess?: (user: User) => void } = {}) {
  return useMutation({
    mutationFn: uploadAvatar,
    onSuccess: (user) => {
      toast.success('Avatar updated');
      onSuccess?.(user);
    },
    onError: (err) => toastError(err, 'Failed to upload avatar'),
  });
}
