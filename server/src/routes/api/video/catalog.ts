import type { FastifyInstance } from 'fastify';

export default async function videoCatalogRoutes(_app: FastifyInstance) {}
