/**
 * The schema half of the endpoint table (docs/decisions/0018-endpoint-table.md): for every key of
 * {@link ENDPOINTS}, the zod schema of the request body and of the answer's `data`. The server
 * registers its routes from both halves (`defineEndpoint`); the web types its calls from this one
 * with `import type` only, so zod stays out of the web's entry.
 */
import type { z } from 'zod';
import {
  AccountChangeDataSchema,
  AccountChangeRequestSchema,
  AccountDeleteDataSchema,
  AccountDeleteRequestSchema,
  AssetsDataSchema,
  AssetsRequestSchema,
  AvatarUrlDataSchema,
  AvatarUrlRequestSchema,
  GetMeDataSchema,
  GetMeRequestSchema,
  LoginDataSchema,
  LoginRequestSchema,
  LogoutDataSchema,
  LogoutRequestSchema,
  PasswordChangeDataSchema,
  PasswordChangeRequestSchema,
  PasswordForgetDataSchema,
  PasswordForgetRequestSchema,
  ProfileDataSchema,
  ProfileRequestSchema,
  RegisterDataSchema,
  RegisterRequestSchema,
  SendMailDataSchema,
  SendMailRequestSchema,
} from './account';
import {
  BannerUrlDataSchema,
  BannerUrlRequestSchema,
  CollectionBuyDataSchema,
  CollectionBuyRequestSchema,
  CollectionCreateDataSchema,
  CollectionCreateRequestSchema,
  CollectionDeleteDataSchema,
  CollectionDeleteRequestSchema,
  CollectionDetailDataSchema,
  CollectionDetailRequestSchema,
  CollectionPublishDataSchema,
  CollectionPublishRequestSchema,
  CollectionResourceAddDataSchema,
  CollectionResourceAddRequestSchema,
  CompleteUploadDataSchema,
  CompleteUploadRequestSchema,
  MarketCollectionsDataSchema,
  MarketCollectionsRequestSchema,
  MultipartUploadDataSchema,
  MultipartUploadRequestSchema,
  MyCollectionsDataSchema,
  MyCollectionsRequestSchema,
  MyOrdersDataSchema,
  MyOrdersRequestSchema,
  MyPurchasedCollectionsDataSchema,
  MyPurchasedCollectionsRequestSchema,
  OrderPayDataSchema,
  OrderPayRequestSchema,
  ResourceDetailDataSchema,
  ResourceDetailRequestSchema,
  ResourceDownloadUrlDataSchema,
  ResourceDownloadUrlRequestSchema,
  UploadPartsDataSchema,
  UploadPartsRequestSchema,
  UploadPartUrlDataSchema,
  UploadPartUrlRequestSchema,
  UploadResourceUrlDataSchema,
  UploadResourceUrlRequestSchema,
  UserCollectionsDataSchema,
  UserCollectionsRequestSchema,
} from './collections';
import type { EndpointKey } from './endpoints';
import {
  EventsListDataSchema,
  EventsListRequestSchema,
  WebhookDeliveriesDataSchema,
  WebhookDeliveriesRequestSchema,
  WebhookGetDataSchema,
  WebhookGetRequestSchema,
  WebhookRedeliverDataSchema,
  WebhookRedeliverRequestSchema,
  WebhookSecretRotateDataSchema,
  WebhookSecretRotateRequestSchema,
  WebhookSetDataSchema,
  WebhookSetRequestSchema,
} from './events';
import {
  CurrencyListDataSchema,
  CurrencyListRequestSchema,
  DepositBillDetailDataSchema,
  DepositBillDetailRequestSchema,
  DepositDataSchema,
  DepositMinAmountDataSchema,
  DepositMinAmountRequestSchema,
  DepositRequestSchema,
  PublicConfigDataSchema,
  PublicConfigRequestSchema,
  SandboxPayDataSchema,
  SandboxPayRequestSchema,
  WithdrawBillDetailDataSchema,
  WithdrawBillDetailRequestSchema,
  WithdrawConfirmDataSchema,
  WithdrawConfirmRequestSchema,
  WithdrawCreateDataSchema,
  WithdrawCreateRequestSchema,
  WithdrawEstimateFeeDataSchema,
  WithdrawEstimateFeeRequestSchema,
} from './payments';
import { RecordListDataSchema, RecordListRequestSchema } from './records';
import {
  ReservesLatestDataSchema,
  ReservesLatestRequestSchema,
  ReservesProofDataSchema,
  ReservesProofRequestSchema,
} from './reserves';

/** The two schemas of one call: its request body and its answer's `data`. */
export interface EndpointSchemas {
  readonly body: z.ZodType;
  readonly data: z.ZodType;
}

/** Body and `data` schemas of every call, keyed like {@link ENDPOINTS} (one entry per key, checked by the compiler). */
export const ENDPOINT_SCHEMAS = {
  register: { body: RegisterRequestSchema, data: RegisterDataSchema },
  login: { body: LoginRequestSchema, data: LoginDataSchema },
  sendMail: { body: SendMailRequestSchema, data: SendMailDataSchema },
  passwordForget: { body: PasswordForgetRequestSchema, data: PasswordForgetDataSchema },
  logout: { body: LogoutRequestSchema, data: LogoutDataSchema },
  getMe: { body: GetMeRequestSchema, data: GetMeDataSchema },
  assets: { body: AssetsRequestSchema, data: AssetsDataSchema },
  profile: { body: ProfileRequestSchema, data: ProfileDataSchema },
  accountChange: { body: AccountChangeRequestSchema, data: AccountChangeDataSchema },
  passwordChange: { body: PasswordChangeRequestSchema, data: PasswordChangeDataSchema },
  accountDelete: { body: AccountDeleteRequestSchema, data: AccountDeleteDataSchema },
  avatarUrl: { body: AvatarUrlRequestSchema, data: AvatarUrlDataSchema },
  recordList: { body: RecordListRequestSchema, data: RecordListDataSchema },
  currencyList: { body: CurrencyListRequestSchema, data: CurrencyListDataSchema },
  publicConfig: { body: PublicConfigRequestSchema, data: PublicConfigDataSchema },
  sandboxPay: { body: SandboxPayRequestSchema, data: SandboxPayDataSchema },
  depositMinAmount: { body: DepositMinAmountRequestSchema, data: DepositMinAmountDataSchema },
  deposit: { body: DepositRequestSchema, data: DepositDataSchema },
  depositBillDetail: { body: DepositBillDetailRequestSchema, data: DepositBillDetailDataSchema },
  withdrawEstimateFee: { body: WithdrawEstimateFeeRequestSchema, data: WithdrawEstimateFeeDataSchema },
  withdrawCreate: { body: WithdrawCreateRequestSchema, data: WithdrawCreateDataSchema },
  withdrawConfirm: { body: WithdrawConfirmRequestSchema, data: WithdrawConfirmDataSchema },
  withdrawBillDetail: { body: WithdrawBillDetailRequestSchema, data: WithdrawBillDetailDataSchema },
  bannerUrl: { body: BannerUrlRequestSchema, data: BannerUrlDataSchema },
  uploadResourceUrl: { body: UploadResourceUrlRequestSchema, data: UploadResourceUrlDataSchema },
  multipartUpload: { body: MultipartUploadRequestSchema, data: MultipartUploadDataSchema },
  uploadPartUrl: { body: UploadPartUrlRequestSchema, data: UploadPartUrlDataSchema },
  uploadParts: { body: UploadPartsRequestSchema, data: UploadPartsDataSchema },
  completeUpload: { body: CompleteUploadRequestSchema, data: CompleteUploadDataSchema },
  collectionCreate: { body: CollectionCreateRequestSchema, data: CollectionCreateDataSchema },
  collectionResourceAdd: { body: CollectionResourceAddRequestSchema, data: CollectionResourceAddDataSchema },
  collectionPublish: { body: CollectionPublishRequestSchema, data: CollectionPublishDataSchema },
  collectionDelete: { body: CollectionDeleteRequestSchema, data: CollectionDeleteDataSchema },
  myCollections: { body: MyCollectionsRequestSchema, data: MyCollectionsDataSchema },
  collectionDetail: { body: CollectionDetailRequestSchema, data: CollectionDetailDataSchema },
  resourceDetail: { body: ResourceDetailRequestSchema, data: ResourceDetailDataSchema },
  marketCollections: { body: MarketCollectionsRequestSchema, data: MarketCollectionsDataSchema },
  userCollections: { body: UserCollectionsRequestSchema, data: UserCollectionsDataSchema },
  resourceDownloadUrl: { body: ResourceDownloadUrlRequestSchema, data: ResourceDownloadUrlDataSchema },
  collectionBuy: { body: CollectionBuyRequestSchema, data: CollectionBuyDataSchema },
  orderPay: { body: OrderPayRequestSchema, data: OrderPayDataSchema },
  myOrders: { body: MyOrdersRequestSchema, data: MyOrdersDataSchema },
  myPurchasedCollections: { body: MyPurchasedCollectionsRequestSchema, data: MyPurchasedCollectionsDataSchema },
  reservesLatest: { body: ReservesLatestRequestSchema, data: ReservesLatestDataSchema },
  reservesProof: { body: ReservesProofRequestSchema, data: ReservesProofDataSchema },
  eventsList: { body: EventsListRequestSchema, data: EventsListDataSchema },
  webhookGet: { body: WebhookGetRequestSchema, data: WebhookGetDataSchema },
  webhookSet: { body: WebhookSetRequestSchema, data: WebhookSetDataSchema },
  webhookSecretRotate: { body: WebhookSecretRotateRequestSchema, data: WebhookSecretRotateDataSchema },
  webhookDeliveries: { body: WebhookDeliveriesRequestSchema, data: WebhookDeliveriesDataSchema },
  webhookRedeliver: { body: WebhookRedeliverRequestSchema, data: WebhookRedeliverDataSchema },
} as const satisfies { readonly [K in EndpointKey]: EndpointSchemas };

/** The schemas of call `K`. */
export type EndpointSchemasOf<K extends EndpointKey> = (typeof ENDPOINT_SCHEMAS)[K];

/** What a client sends to call `K` (the body schema's input: fields with defaults may be left out). */
export type EndpointBody<K extends EndpointKey> = z.input<EndpointSchemasOf<K>['body']>;

/** The `data` of a successful answer to `K`, as it arrives (the data schema's output, in JSON). */
export type EndpointData<K extends EndpointKey> = z.output<EndpointSchemasOf<K>['data']>;
