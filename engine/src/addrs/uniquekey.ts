// Keys for Maps and Sets of addresses (OpenTofu's UniqueKey). Addresses are objects, so two
// equal addresses are different Map keys; their printed forms are nearly unique, but a resource
// and its no-key instance (or a module call and its no-key instance) print the same, so the kind
// is part of the key.
interface Keyable {
  readonly kind: string;
  toString(): string;
}

export function uniqueKey(addr: Keyable): string {
  return `${addr.kind} ${addr.toString()}`;
}
