import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { AwsClientStub } from 'aws-sdk-client-mock';

/**
 * Transactions for handler tests, matched by what an item writes rather than where it sits: a mock that
 * cancels "the name guard" or reads "the update of TERM#5" keeps working when a handler reorders the
 * items of its TransactWriteItems.
 */

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
export type Operation = 'Put' | 'Update' | 'Delete' | 'ConditionCheck';

/** Which items a test means: the item's partition key (exact or a pattern), optionally its sort key and operation. */
export interface ItemMatch {
  pk: string | RegExp;
  sk?: string | RegExp;
  op?: Operation;
}

const OPERATIONS: Operation[] = ['Put', 'Update', 'Delete', 'ConditionCheck'];

/** The operation of an item and the key it touches (a Put's key is in its Item). */
export function itemKey(item: TransactItem): { op: Operation; pk: unknown; sk: unknown } {
  const op = OPERATIONS.find((o) => item[o] !== undefined);
  if (!op) throw new Error(`not a transaction item: ${JSON.stringify(item)}`);
  const key = op === 'Put' ? item.Put!.Item : item[op]!.Key;
  return { op, pk: key?.pk, sk: key?.sk };
}

const fits = (want: string | RegExp | undefined, have: unknown) =>
  want === undefined ||
  (typeof want === 'string' ? have === want : typeof have === 'string' && want.test(have));

export const matches = (item: TransactItem, m: ItemMatch): boolean => {
  const k = itemKey(item);
  return fits(m.pk, k.pk) && fits(m.sk, k.sk) && (m.op === undefined || m.op === k.op);
};

const describeMatch = (m: ItemMatch) => JSON.stringify({ ...m, pk: String(m.pk), sk: m.sk && String(m.sk) });

/**
 * The TransactionCanceledException DynamoDB would answer `input` with when the items `failing` names
 * fail with the given codes: one reason per item, in the items' order, `None` for the others. Throws
 * when a rule matches no item, so a test whose transaction no longer holds that item fails loudly.
 */
export function cancelledFor(
  input: TransactWriteCommandInput,
  failing: Array<[ItemMatch, string]>,
  message = 'Transaction cancelled, please refer cancellation reasons for specific reasons',
): TransactionCanceledException {
  const items = input.TransactItems ?? [];
  for (const [m] of failing)
    if (!items.some((item) => matches(item, m)))
      throw new Error(
        `no item of the transaction matches ${describeMatch(m)}; it holds ${JSON.stringify(items.map(itemKey))}`,
      );
  return new TransactionCanceledException({
    message,
    $metadata: {},
    CancellationReasons: items.map((item) => ({
      Code: failing.find(([m]) => matches(item, m))?.[1] ?? 'None',
    })),
  });
}

/**
 * A fake for `ddb.on(TransactWriteCommand).callsFake(…)` that cancels every transaction it gets, failing
 * the matching items with `code`.
 */
export const cancelWhere =
  (match: ItemMatch, code: string, message?: string) => (input: TransactWriteCommandInput) =>
    Promise.reject(cancelledFor(input, [[match, code]], message));

/** The items of every TransactWriteItems sent so far that match, in the order they were sent. */
export function sentItems(mock: AwsClientStub<DynamoDBDocumentClient>, match: ItemMatch): TransactItem[] {
  return mock
    .commandCalls(TransactWriteCommand)
    .flatMap((call) => call.args[0].input.TransactItems ?? [])
    .filter((item) => matches(item, match));
}
