/*
 * util_hb_dl.c - HarfBuzz opened at first use (hb_dl.h): dlopen of its soname, every function
 * resolved with dlsym, once per process. Built only with OTV_HB_DLOPEN (cmake/cli.cmake).
 * A command linked fully static (OTV_CLI_STATIC_BINARY) loads the system's shared glibc with
 * HarfBuzz; that is only safe with the glibc the command was linked with, so after a glibc
 * upgrade HarfBuzz is refused (the commands fall back as without it) instead of risking a crash.
 */
#define OTV_HB_DL_IMPL
#include "hb_dl.h"

#ifdef OTV_HB_DLOPEN

#  include <dlfcn.h>
#  include <string.h>
#  ifdef OTV_CLI_STATIC_BINARY
#    include <gnu/libc-version.h>
#  endif

otv_hb_api otv_hb;

#  ifdef OTV_CLI_STATIC_BINARY
/* Whether the shared glibc the dynamic libraries would use is the release linked in here. */
static bool same_glibc(void)
{
  void *c = dlopen("libc.so.6", RTLD_NOW | RTLD_LOCAL);
  if (!c) return false;
  void *sym = dlsym(c, "gnu_get_libc_version");
  const char *(*version)(void) = NULL;
  if (sym) memcpy(&version, &sym, sizeof version);
  bool same = version && !strcmp(version(), gnu_get_libc_version());
  if (!same) dlclose(c);
  return same; /* when the same, kept open: HarfBuzz needs it next */
}
#  endif

bool otv_hb_load(void)
{
  static int state; /* 0 not tried, 1 loaded, -1 failed */
  if (state) return state > 0;
  state = -1;
#  ifdef OTV_CLI_STATIC_BINARY
  if (!same_glibc()) return false;
#  endif
  void *h = dlopen(OTV_HB_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (!h) return false;
  otv_hb_api api;
  void *sym;
  /* a data pointer copied into a function pointer (POSIX dlsym; ISO C has no cast for it) */
#  define OTV_HB_RESOLVE_(n)                                                                       \
    if (!(sym = dlsym(h, #n))) {                                                                   \
      dlclose(h);                                                                                  \
      return false;                                                                                \
    }                                                                                              \
    memcpy(&api.n, &sym, sizeof api.n);
  OTV_HB_FUNCS(OTV_HB_RESOLVE_)
#  undef OTV_HB_RESOLVE_
  otv_hb = api; /* the handle stays open for the process's life */
  state = 1;
  return true;
}

#else
typedef int otv_hb_dl_unused; /* ISO C: a translation unit declares something */
#endif
