import { OperationNodeTransformer, RawNode, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';

/**
 * The few SQLite spellings in db/queries/ said PostgreSQL's way, on the PostgreSQL Kysely only (the
 * SQLite path compiles exactly as before): `x LIKE p ESCAPE '\'` from db/queries/search.ts is
 * case-insensitive in SQLite (ASCII) and must be ILIKE here.
 */
class Spellings extends OperationNodeTransformer {
  protected override transformRaw(node: RawNode): RawNode {
    const fragments = node.sqlFragments;
    const i = fragments.findIndex((f, index) => f === ' LIKE ' && fragments[index + 1]?.startsWith(" ESCAPE '\\'"));
    if (i === -1) return super.transformRaw(node);
    const changed = RawNode.create(
      fragments.map((f, index) => (index === i ? ' ILIKE ' : f)),
      node.parameters,
    );
    return super.transformRaw(changed);
  }
}

export class PostgresSpellings implements KyselyPlugin {
  readonly #transformer = new Spellings();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
