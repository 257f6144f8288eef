/*
 * util_hb_dl.c - HarfBuzz opened at first use (hb_dl.h): dlopen of its soname, every function
 * resolved with dlsym, once per process. Built only with OTV_HB_DLOPEN (cmake/cli.cmake).
 */
#define OTV_HB_DL_IMPL
#include "hb_dl.h"

#ifdef OTV_HB_DLOPEN

#  include <dlfcn.h>
#  include <string.h>

otv_hb_api otv_hb;

bool otv_hb_load(void)
{
  static int state; /* 0 not tried, 1 loaded, -1 failed */
  if (state) return state > 0;
  state = -1;
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
