/** Account routes (SPEC 7 account table). Thin: parse (contract schemas), call the service, answer. */
import {
  AccountChangeDataSchema,
  AccountChangeRequestSchema,
  AccountDeleteDataSchema,
  AccountDeleteRequestSchema,
  AssetsDataSchema,
  AssetsRequestSchema,
  GetMeDataSchema,
  GetMeRequestSchema,
  LoginDataSchema,
  LoginRequestSchema,
  LogoutDataSchema,
  LogoutRequestSchema,
  PasswordChangeDataSchema,
  PasswordChangeRequestSchema,
  ProfileDataSchema,
  ProfileRequestSchema,
  RegisterDataSchema,
  RegisterRequestSchema,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import { defineRoute, ucPath } from '../../lib/route';
import type { AccountService } from './account.service';

const tags = ['account'];

export function accountRoutes(app: FastifyInstance, accounts: AccountService) {
  defineRoute(
    app,
    { path: ucPath('/register'), body: RegisterRequestSchema, data: RegisterDataSchema, tags, summary: 'Create an account and sign in' },
    ({ body }) => accounts.register(body),
  );
  defineRoute(
    app,
    { path: ucPath('/login'), body: LoginRequestSchema, data: LoginDataSchema, tags, summary: 'Sign in with username or email' },
    ({ body }) => accounts.login(body),
  );
  defineRoute(
    app,
    { path: ucPath('/logout'), body: LogoutRequestSchema, data: LogoutDataSchema, auth: 'required', tags, summary: 'Revoke the current session' },
    ({ auth }) => accounts.logout(auth.sessionId),
  );
  defineRoute(
    app,
    { path: ucPath('/get/me'), body: GetMeRequestSchema, data: GetMeDataSchema, auth: 'required', tags, summary: 'The signed-in user' },
    ({ auth }) => accounts.me(auth.userId),
  );
  defineRoute(
    app,
    { path: ucPath('/assets'), body: AssetsRequestSchema, data: AssetsDataSchema, auth: 'required', tags, summary: 'Available and frozen points' },
    ({ auth, body }) => accounts.assets(auth.userId, body.user_id),
  );
  defineRoute(
    app,
    { path: ucPath('/profile'), body: ProfileRequestSchema, data: ProfileDataSchema, auth: 'optional', tags, summary: "A user's public profile" },
    ({ body }) => accounts.profile(body.user_id),
  );
  defineRoute(
    app,
    { path: ucPath('/change'), body: AccountChangeRequestSchema, data: AccountChangeDataSchema, auth: 'required', tags, summary: 'Change nickname or avatar' },
    ({ auth, body }) => accounts.change(auth.userId, body),
  );
  defineRoute(
    app,
    {
      path: ucPath('/password/change'),
      body: PasswordChangeRequestSchema,
      data: PasswordChangeDataSchema,
      auth: 'required',
      tags,
      summary: 'Change the password (revokes every session, returns a fresh token)',
    },
    ({ auth, body }) => accounts.changePassword(auth.userId, body.password_old, body.password_new),
  );
  defineRoute(
    app,
    { path: ucPath('/delete'), body: AccountDeleteRequestSchema, data: AccountDeleteDataSchema, auth: 'required', tags, summary: 'Delete the account' },
    ({ auth, body }) => accounts.deleteAccount(auth.userId, body.password),
  );
}
