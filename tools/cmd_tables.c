/*
 * cmd_tables.c - `otvar tables FONT`: the table directory (tag, offset, length, checksum).
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

const char otv_cmd_tables_summary[] = "list the font's tables";

int otv_cmd_tables(int argc, char **argv)
{
  const char *path = NULL;
  unsigned index = 0;
  for (int i = 1; i < argc; i++) {
    if (cli_is_help(argv[i])) {
      printf("usage: otvar tables FONT [--index N]\n\nOne line per table: TAG OFFSET LENGTH "
             "CHECKSUM (hex), sorted by tag.\n");
      return OTV_EXIT_OK;
    } else if (!strcmp(argv[i], "--index") && i + 1 < argc) {
      if (cli_parse_index("tables", argv[++i], &index)) return OTV_EXIT_USAGE;
    } else if (argv[i][0] == '-' || path) {
      cli_usage_error("tables", "unexpected argument '%s' (see --help)", argv[i]);
      return OTV_EXIT_USAGE;
    } else {
      path = argv[i];
    }
  }
  if (!path) {
    cli_usage_error("tables", "missing FONT (see --help)");
    return OTV_EXIT_USAGE;
  }
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
