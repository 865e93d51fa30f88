/** Licence key calls (product §28): licence/settings/get, licence/settings, licence/validate (public). */
import type { FastifyInstance } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import type { LicencesService } from './licences.service';

/** licence/validate requests per IP per minute (a seller's software checks a key at start-up). */
export const LICENCE_VALIDATE_PER_MINUTE = 60;

export function licencesRoutes(app: FastifyInstance, licences: LicencesService) {
  defineEndpoint(app, 'licenceSettingsGet', {}, ({ auth, body }) => licences.settings(auth.userId, body.collection_id));
  defineEndpoint(app, 'licenceSettingsSet', {}, ({ auth, body }) =>
    licences.setSettings(auth.userId, body.collection_id, body.enabled, body.max_activations ?? null),
  );
  defineEndpoint(
    app,
    'licenceValidate',
    { rateLimit: { max: LICENCE_VALIDATE_PER_MINUTE, timeWindow: 60_000, keyGenerator: (req) => `licence:${req.ip}` } },
    ({ body }) => licences.validate(body.key, body.instance),
  );
}
