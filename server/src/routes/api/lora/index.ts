import type { FastifyInstance } from 'fastify';

export default async function loraRoutes(_app: FastifyInstance) {}
