import type { FastifyInstance } from 'fastify';

export default async function roleRoutes(_app: FastifyInstance) {}
