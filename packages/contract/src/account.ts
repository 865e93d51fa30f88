/**
 * Account calls (product §7 account table; bodies and `data` per product §17), base path `/api/uc/v1/account`.
 */
import { z } from 'zod';
import { AssetSchema, IdSchema, isOneLine, oneLineMessage } from './common';
import { IMAGE_CONTENT_TYPES, IMAGE_MAX_BYTES, RESET_CODE_LENGTH } from './constants';
import { PasswordDigestSchema } from './password';

/** A string field whose missing value reads '<Name> is required' and whose wrong type reads '<Name> must be a string'. */
function textField(name: string) {
  return z.string({
    error: (issue) => (issue.input === undefined || issue.input === null ? `${name} is required` : `${name} must be a string`),
  });
}

export const UsernameSchema = textField('Username')
  .trim()
  .regex(/^[A-Za-z0-9_]{3,32}$/, 'Username must be 3-32 letters, digits or underscores');

export const EmailSchema = textField('Email')
  .trim()
  .max(254, 'Email is too long')
  .pipe(z.email('Invalid email address'))
  .transform((v) => v.toLowerCase());

export const NicknameSchema = z
  .string()
  .trim()
  .min(1, 'Nickname cannot be empty')
  .max(64, 'Nickname is too long')
  .refine(isOneLine, oneLineMessage('Nickname'));

/** The user record of product §3 as get/me answers it. */
export const UserSchema = z.object({
  id: z.string(),
  username: z.string(),
  nickname: z.string(),
  email: z.string(),
  avatar: z.string(),
  asset: AssetSchema,
  created_at: z.number(),
});
export type User = z.infer<typeof UserSchema>;

/** A user's public face (profile of another user, seller of a collection). */
export const PublicUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  nickname: z.string(),
  avatar: z.string(),
  created_at: z.number(),
});
export type PublicUser = z.infer<typeof PublicUserSchema>;

export const AccessTokenDataSchema = z.object({ access_token: z.string() });
export type AccessTokenData = z.infer<typeof AccessTokenDataSchema>;

/** POST /uc/v1/account/register */
export const RegisterRequestSchema = z.object({
  username: UsernameSchema,
  email: EmailSchema,
  password: PasswordDigestSchema,
  nickname: NicknameSchema.optional(),
});
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;
export const RegisterDataSchema = AccessTokenDataSchema;

/** POST /uc/v1/account/login — `account` is a username or an email. */
export const LoginRequestSchema = z.object({
  account: textField('Username or email').trim().min(1, 'Username or email is required').max(254),
  password: PasswordDigestSchema,
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;
export const LoginDataSchema = AccessTokenDataSchema;

/** POST /uc/v1/account/logout */
export const LogoutRequestSchema = z.object({}).default({});
export const LogoutDataSchema = z.object({});

/** POST /uc/v1/account/get/me */
export const GetMeRequestSchema = z.object({}).default({});
export const GetMeDataSchema = UserSchema;

/** POST /uc/v1/account/send_mail */
export const SendMailRequestSchema = z.object({
  email: EmailSchema,
  type: z.literal('reset_password', { error: "type must be 'reset_password'" }).default('reset_password'),
});
export type SendMailRequest = z.infer<typeof SendMailRequestSchema>;
export const SendMailDataSchema = z.object({});

/** POST /uc/v1/account/password/forget */
export const PasswordForgetRequestSchema = z.object({
  email: EmailSchema,
  code: textField('Code')
    .trim()
    .regex(new RegExp(`^\\d{${RESET_CODE_LENGTH}}$`), `Code must be ${RESET_CODE_LENGTH} digits`),
  password: PasswordDigestSchema,
});
export type PasswordForgetRequest = z.infer<typeof PasswordForgetRequestSchema>;
export const PasswordForgetDataSchema = z.object({});

/** The refusal of a password change whose new password is the current one. */
export const SAME_PASSWORD_MESSAGE = 'The new password must be different from the current one';

/** POST /uc/v1/account/password/change — both digests. The answer carries a fresh token: the old sessions are revoked. */
export const PasswordChangeRequestSchema = z
  .object({
    password_old: PasswordDigestSchema,
    password_new: PasswordDigestSchema,
  })
  .refine((v) => v.password_old.toLowerCase() !== v.password_new.toLowerCase(), {
    message: SAME_PASSWORD_MESSAGE,
    path: ['password_new'],
  });
export type PasswordChangeRequest = z.infer<typeof PasswordChangeRequestSchema>;
export const PasswordChangeDataSchema = AccessTokenDataSchema;

/** POST /uc/v1/account/change */
export const AccountChangeRequestSchema = z.object({
  nickname: NicknameSchema.optional(),
  avatar: z.string().max(512, 'Avatar is too long').optional(),
});
export type AccountChangeRequest = z.infer<typeof AccountChangeRequestSchema>;
export const AccountChangeDataSchema = UserSchema;

/** POST /uc/v1/account/avatar/url — presigned PUT for an avatar image. */
export const ImageUploadRequestSchema = z.object({
  content_type: z.enum(IMAGE_CONTENT_TYPES, { error: 'Images must be PNG, JPEG, WebP or GIF' }),
  size: z
    .number({ error: 'size is required' })
    .int('size must be an integer')
    .min(1, 'The image is empty')
    .max(IMAGE_MAX_BYTES, 'Images must be 5 MB or smaller'),
});
export type ImageUploadRequest = z.infer<typeof ImageUploadRequestSchema>;
export const AvatarUrlRequestSchema = ImageUploadRequestSchema;
export const AvatarUrlDataSchema = z.object({ url: z.string(), avatar: z.string(), expires_at: z.number() });

/**
 * POST /api/uc/v1/account/notifications — reads (empty body) or sets the caller's notification
 * choices: `update_mails`, mails about updates to collections they bought (product §24).
 */
export const AccountNotificationsRequestSchema = z
  .object({ update_mails: z.boolean({ error: 'update_mails must be true or false' }).optional() })
  .default({});
export const AccountNotificationsDataSchema = z.object({ update_mails: z.boolean() });

/** POST /uc/v1/account/delete */
export const AccountDeleteRequestSchema = z.object({ password: PasswordDigestSchema });
export const AccountDeleteDataSchema = z.object({});

/** POST /uc/v1/account/assets */
export const AssetsRequestSchema = z.object({ user_id: IdSchema });
export const AssetsDataSchema = z.object({ asset: AssetSchema });

/** POST /uc/v1/account/profile (product §17, new) */
export const ProfileRequestSchema = z.object({ user_id: IdSchema });
export const ProfileDataSchema = PublicUserSchema;
