dnl SLURM_MESH_CHECK_SLURM: find Slurm's public headers and, for the
dnl plugin, a configured Slurm source tree of exactly the installed
dnl version (--with-slurm-source=DIR).  Sets have_slurm, HAVE_SLURM.
AC_DEFUN([SLURM_MESH_CHECK_SLURM], [
  AC_ARG_WITH([slurm-source],
    [AS_HELP_STRING([--with-slurm-source=DIR],
      [configured Slurm source tree matching the installed Slurm (default: read /usr/local/src/slurm-mesh/SLURM_SRC)])],
    [], [with_slurm_source=auto])
  AC_ARG_WITH([slurm-plugindir],
    [AS_HELP_STRING([--with-slurm-plugindir=DIR],
      [where make install puts select_mesh.so (default: Slurm's PluginDir)])],
    [], [with_slurm_plugindir=auto])
  have_slurm=no
  slurm_note=""
  AS_IF([test "x$with_slurm_source" = xno], [slurm_note="(disabled)"], [
    AS_IF([test "x$with_slurm_source" = xauto],
      [AS_IF([test -r /usr/local/src/slurm-mesh/SLURM_SRC],
             [with_slurm_source=`cat /usr/local/src/slurm-mesh/SLURM_SRC`],
             [with_slurm_source=""])])
    AC_CHECK_HEADER([slurm/slurm.h], [have_slurm_h=yes], [have_slurm_h=no])
    AS_IF([test "x$have_slurm_h" = xno],
      [slurm_note="(libslurm-dev not installed)"],
    [test -z "$with_slurm_source"],
      [slurm_note="(no Slurm source; run contrib/setup-debian.sh or pass --with-slurm-source)"],
    [
      SLURM_SRC=`cd "$with_slurm_source" 2>/dev/null && pwd`
      SLURM_BUILD="$SLURM_SRC/obj-x86_64-linux-gnu"
      AS_IF([test ! -r "$SLURM_SRC/src/common/select.h" || test ! -r "$SLURM_BUILD/config.h"],
        [AC_MSG_ERROR([--with-slurm-source=$with_slurm_source is not a configured Slurm source tree (need src/common/select.h and obj-x86_64-linux-gnu/config.h); run contrib/setup-debian.sh])])
      AC_MSG_CHECKING([installed Slurm version])
      installed_ver=`sed -n 's/^#define SLURM_VERSION_NUMBER *//p' /usr/include/slurm/slurm_version.h | tr -d ' 	'`
      AC_MSG_RESULT([$installed_ver])
      AC_MSG_CHECKING([Slurm source version])
      source_ver=`sed -n 's/^#define SLURM_VERSION_NUMBER *//p' "$SLURM_BUILD/slurm/slurm_version.h" 2>/dev/null | tr -d ' 	'`
      AC_MSG_RESULT([$source_ver])
      AS_IF([test -z "$installed_ver" || test "x$installed_ver" != "x$source_ver"],
        [AC_MSG_ERROR([Slurm source at $SLURM_SRC is version $source_ver but the installed Slurm is $installed_ver; the plugin must be built against the exact installed release (Slurm checks the micro version at load time)])])
      have_slurm=yes
      AS_IF([test "x$with_slurm_plugindir" = xauto],
        [with_slurm_plugindir=`pkg-config --variable=libdir slurm 2>/dev/null`
         AS_IF([test -d /usr/lib/x86_64-linux-gnu/slurm-wlm],
               [with_slurm_plugindir=/usr/lib/x86_64-linux-gnu/slurm-wlm],
               [with_slurm_plugindir="${libdir}/slurm"])])
    ])
  ])
  AC_SUBST([SLURM_SRC])
  AC_SUBST([SLURM_BUILD])
  AC_SUBST([SLURM_PLUGINDIR], [$with_slurm_plugindir])
  AM_CONDITIONAL([HAVE_SLURM], [test "x$have_slurm" = xyes])
])
