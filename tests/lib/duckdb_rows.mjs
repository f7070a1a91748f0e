// SPDX-License-Identifier: LGPL-2.1
// duckdb_rows.mjs GLOB: DuckDB (@duckdb/node-api) loads the --rows files
// GLOB names and prints, as JSON, the call-site rows grouped two ways:
// by trace (file, allocator, callsite) and across the traces (allocator,
// callsite), with hits, bytes allocated and live bytes summed.
// tests/e2e/duckdb.sh copies it next to its node_modules and runs it.
import { DuckDBInstance } from '@duckdb/node-api';

const glob = process.argv[2];
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
const sums = `sum(hits)::BIGINT AS hits,
	sum(coalesce(bytes_alloc, bytes))::BIGINT AS bytes,
	sum(live_bytes)::BIGINT AS live_bytes`;
const from = `FROM read_json_auto('${glob}', union_by_name = true,
	sample_size = -1) WHERE "table" = 'callsites'`;
const per = await con.runAndReadAll(
	`SELECT file, allocator, callsite, ${sums} ${from} GROUP BY ALL`);
const all = await con.runAndReadAll(
	`SELECT allocator, callsite, ${sums} ${from} GROUP BY ALL`);
console.log(JSON.stringify({ per_trace: per.getRowObjectsJson(),
			     across: all.getRowObjectsJson() }));
