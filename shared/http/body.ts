import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { config } from '../config';
import { invalidJson, payloadTooLarge, unsupportedMediaType } from './errors';
import { parseQueryString } from './params';

/** Reads a JSON or form body (WordPress clients send both) into a plain object. */
export function parseBody(event: APIGatewayProxyEventV2): Record<string, unknown> {
  if (!event.body) return {};
  const buf = Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  if (buf.byteLength > config.maxBodyBytes) throw payloadTooLarge(config.maxBodyBytes);
  const text = buf.toString('utf8');
  if (text.trim() === '') return {};
  const type = (event.headers?.['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw invalidJson();
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidJson();
    return parsed as Record<string, unknown>;
  }
  if (type === 'application/x-www-form-urlencoded') return parseQueryString(text);
  throw unsupportedMediaType(type || 'none');
}
