/**
 * The least working memory a Mailroom session gets for its sorts, hashes and bitmaps. A full-text search whose
 * words are in many records builds a bitmap of their heap pages: under PostgreSQL's default 4 MB, one for more
 * than about 40,000 pages turns lossy, and every row of a lossy page is read and its words matched again (a word
 * in 100,000 of 1,000,000 records: 1.8 s at 4 MB, 0.3 s at 32 MB, docs/benchmarks.md). An operator's larger
 * setting is kept.
 */
export const SESSION_WORK_MEM_BYTES = 32 * 1024 * 1024

/**
 * Run once by every session Mailroom opens, before its first statement. JIT compilation is turned off: it starts
 * on statements PostgreSQL estimates costly (a search of a common word), costs them 100–150 ms of compiling and
 * never pays that back on Mailroom's short statements.
 */
export const SESSION_SETTINGS_SQL = `select set_config('jit', 'off', false),
  case when pg_size_bytes(current_setting('work_mem')) < ${SESSION_WORK_MEM_BYTES}
    then set_config('work_mem', '${SESSION_WORK_MEM_BYTES / 1024 / 1024}MB', false) end`
