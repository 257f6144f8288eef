/*
 * cmd_tables.c - `otvar tables FONT`: the table directory (tag, offset, length, checksum).
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

const char otv_cmd_tables_summary[] = "list the font's tables";

static const cli_cmd tables_cmd = {
    "tables",
    "otvar tables FONT [--index N]",
    "One line per table: TAG OFFSET LENGTH CHECKSUM (hex), sorted by tag.\n"
    "FONT - reads the font from standard input.\n",
    "Exit codes: 0 ok, 1 bad font, 2 bad usage.\n",
    "FONT",
    1,
    1};

int otv_cmd_tables(int argc, char **argv)
{
  const char *index_arg = NULL;
  const cli_opt opts[] = {
      {"index", 0, CLI_OPT_VALUE, &index_arg, "N", "face N of a TrueType Collection (default 0)"},
      {"help", 'h', CLI_OPT_HELP, NULL, NULL, "this help"},
      CLI_OPT_END,
  };
  int rc;
  const char *path = cli_parse_one(&tables_cmd, opts, argc, argv, &rc);
  if (!path) return rc;
  unsigned index = 0;
  if (index_arg && cli_parse_index("tables", index_arg, &index)) return OTV_EXIT_USAGE;
  if ((rc = cli_check_std("tables", path, NULL, false))) return rc;
  otv_face *face = cli_open_face(path, index);
  if (!face) return OTV_EXIT_FONT;
  unsigned total = otv_face_tables(face, 0, NULL, NULL);
  for (unsigned i = 0; i < total; i++) {
    otv_table_record t;
    unsigned one = 1;
    otv_face_tables(face, i, &one, &t);
    char tag[5];
    otv_tag_to_string(t.tag, tag);
    printf("%s 0x%08x %u 0x%08x\n", tag, t.offset, t.length, t.checksum);
  }
  cli_close_face(face);
  return OTV_EXIT_OK;
}
