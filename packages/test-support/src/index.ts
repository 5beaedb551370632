export { ENDPOINT_ENV, testEndpoints, type EndpointSource, type TestEndpoints } from './endpoints.js';
export {
  createIsolatedSchema,
  tempDirs,
  uniqueName,
  type IsolatedSchema,
  type TempDirs,
} from './isolation.js';
export { INSTALL_HINT, resolveInfrastructure, type ResolvedInfrastructure } from './resolve-endpoints.js';
