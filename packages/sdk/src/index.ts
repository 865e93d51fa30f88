/**
 * @coffer/sdk: a typed client of Coffer's API (packages/sdk/README.md).
 */
export {
  CofferApiError,
  createCofferClient,
  SUCCESS_CODE,
  type CallBody,
  type CallData,
  type CallOptions,
  type CallPath,
  type CofferClient,
  type CofferClientOptions,
} from './client';
export { contentTypeOf, md5OfFile, uploadFile, type UploadedResource } from './upload';
export { csvCell, toCsv, type CsvCell } from './csv';
export type { components, operations, paths } from './generated/openapi';
