/* post_names.h - the standard Macintosh glyph names (post_names.c). */
#ifndef OTV_POST_NAMES_H
#define OTV_POST_NAMES_H

#define OTV_POST_STD_NAMES 258u
extern const char *const otv_post_std_names[OTV_POST_STD_NAMES];

#endif /* OTV_POST_NAMES_H */
