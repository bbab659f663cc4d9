import type { FastifyInstance } from 'fastify';

export default async function versionRoutes(_app: FastifyInstance) {}
