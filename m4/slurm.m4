dnl SLURM_MESH_CHECK_SLURM: find a configured Slurm tree for the plugins
dnl and read its release.  The source tree (--with-slurm-source) holds
dnl Slurm's internal headers; the build tree (--with-slurm-build, in or out
dnl of the source tree, any architecture) holds config.h and
dnl slurm/slurm_version.h.  Only the releases of SLURM_MESH_SERIES are
dnl built; plugin/compat.h holds what differs between them.  smesh links
dnl the libslurm installed under the tree's prefix and is left out when
dnl that is missing or of another release.
dnl Sets have_slurm, have_smesh, SLURM_SERIES and the conditionals
dnl HAVE_SLURM, HAVE_SMESH, SLURM_2205, SLURM_2411.
AC_DEFUN([SLURM_MESH_CHECK_SLURM], [
  m4_define([SLURM_MESH_SERIES], [22.05 and 24.11])
  AC_ARG_WITH([slurm-source],
    [AS_HELP_STRING([--with-slurm-source=DIR],
      [Slurm source tree (default: the path in /usr/local/src/slurm-mesh/SLURM_SRC); no: no plugins])],
    [], [with_slurm_source=auto])
  AC_ARG_WITH([slurm-build],
    [AS_HELP_STRING([--with-slurm-build=DIR],
      [where that tree was configured (default: DIR/obj-*, else DIR itself)])],
    [], [with_slurm_build=auto])
  AC_ARG_WITH([slurm-plugindir],
    [AS_HELP_STRING([--with-slurm-plugindir=DIR],
      [where make install puts the plugins (default: LIBDIR/slurm; name Slurm's PluginDir to install into it)])],
    [], [with_slurm_plugindir=auto])
  have_slurm=no
  have_smesh=no
  slurm_note=""
  SLURM_SERIES=""
  SLURM_RELEASE=""
  SLURM_PREFIX=""
  AS_IF([test "x$with_slurm_source" = xno], [slurm_note="(disabled)"], [
    AS_IF([test "x$with_slurm_source" = xauto],
      [AS_IF([test -r /usr/local/src/slurm-mesh/SLURM_SRC],
             [with_slurm_source=`cat /usr/local/src/slurm-mesh/SLURM_SRC`],
             [with_slurm_source=""])])
    AS_IF([test -z "$with_slurm_source"],
      [slurm_note="(no Slurm source; run contrib/setup-debian.sh or pass --with-slurm-source)"],
    [
      SLURM_SRC=`cd "$with_slurm_source" 2>/dev/null && pwd`
      AS_IF([test -z "$SLURM_SRC" || test ! -r "$SLURM_SRC/slurm/slurm_version.h.in" || test ! -r "$SLURM_SRC/src/common/log.h"],
        [AC_MSG_ERROR([--with-slurm-source=$with_slurm_source is not a Slurm source tree (no slurm/slurm_version.h.in, src/common/log.h)])])
      AS_IF([test "x$with_slurm_build" = xauto], [
        with_slurm_build=""
        for d in "$SLURM_SRC"/obj-* "$SLURM_SRC"; do
          AS_IF([test -r "$d/config.h" && test -r "$d/slurm/slurm_version.h"],
                [with_slurm_build=$d; break])
        done
        AS_IF([test -z "$with_slurm_build"],
          [AC_MSG_ERROR([no configured build of $SLURM_SRC found (neither $SLURM_SRC/obj-* nor $SLURM_SRC has config.h and slurm/slurm_version.h): run Slurm's configure, or pass --with-slurm-build=DIR])])])
      SLURM_BUILD=`cd "$with_slurm_build" 2>/dev/null && pwd`
      AS_IF([test -z "$SLURM_BUILD" || test ! -r "$SLURM_BUILD/config.h" || test ! -r "$SLURM_BUILD/slurm/slurm_version.h"],
        [AC_MSG_ERROR([--with-slurm-build=$with_slurm_build is not a configured Slurm build tree (need config.h and slurm/slurm_version.h)])])

      AC_MSG_CHECKING([Slurm release of $SLURM_BUILD])
      slurm_vnum=`sed -n 's/^#define SLURM_VERSION_NUMBER *//p' "$SLURM_BUILD/slurm/slurm_version.h" | tr -d ' 	'`
      AS_CASE([$slurm_vnum], [0x[[0-9a-fA-F]]*], [],
        [AC_MSG_ERROR([$SLURM_BUILD/slurm/slurm_version.h: no SLURM_VERSION_NUMBER])])
      SLURM_RELEASE=`printf '%02d.%02d.%d' $(( slurm_vnum >> 16 )) $(( (slurm_vnum >> 8) & 255 )) $(( slurm_vnum & 255 ))`
      AC_MSG_RESULT([$SLURM_RELEASE ($slurm_vnum)])
      AS_CASE([$SLURM_RELEASE],
        [22.05.*], [SLURM_SERIES=2205; slurm_probe=src/common/select.h],
        [24.11.*], [SLURM_SERIES=2411; slurm_probe=src/interfaces/select.h],
        [AC_MSG_ERROR([Slurm $SLURM_RELEASE (at $SLURM_BUILD) is not supported; slurm-mesh builds against Slurm ]SLURM_MESH_SERIES[ (see doc/select-mesh.md)])])
      AC_MSG_CHECKING([for $slurm_probe in the Slurm source])
      AS_IF([test -r "$SLURM_SRC/$slurm_probe"], [AC_MSG_RESULT([yes])],
        [AC_MSG_RESULT([no])
         AC_MSG_ERROR([$SLURM_SRC lacks $slurm_probe, which Slurm $SLURM_RELEASE has: is $SLURM_BUILD the build of $SLURM_SRC?])])
      have_slurm=yes

      dnl The libslurm installed under the tree's prefix, for smesh and to
      dnl catch a tree of another release than the daemons.
      SLURM_PREFIX=`sed -n 's/^S\[["prefix"\]]="\(.*\)"$/\1/p' "$SLURM_BUILD/config.status" 2>/dev/null`
      AS_IF([test -z "$SLURM_PREFIX"], [SLURM_PREFIX=/usr])
      AC_MSG_CHECKING([installed Slurm under $SLURM_PREFIX])
      installed_vnum=`sed -n 's/^#define SLURM_VERSION_NUMBER *//p' "$SLURM_PREFIX/include/slurm/slurm_version.h" 2>/dev/null | tr -d ' 	'`
      AS_IF([test -z "$installed_vnum"],
        [AC_MSG_RESULT([none])
         slurm_note="(no Slurm installed under $SLURM_PREFIX: smesh is left out)"
         AC_MSG_WARN([no Slurm is installed under $SLURM_PREFIX (the prefix $SLURM_BUILD was configured for): the plugins are built for Slurm $SLURM_RELEASE, smesh is not])],
      [test "x$installed_vnum" != "x$slurm_vnum"],
        [AC_MSG_RESULT([$installed_vnum])
         AC_MSG_ERROR([Slurm source at $SLURM_SRC is version $slurm_vnum but the installed Slurm is $installed_vnum; the plugin must be built against the exact installed release (Slurm checks the micro version at load time)])],
      [AC_MSG_RESULT([$installed_vnum])
       have_smesh=yes])
      AS_IF([test "x$with_slurm_plugindir" = xauto],
        [with_slurm_plugindir='${libdir}/slurm'])
    ])
  ])
  AS_IF([test "x$with_slurm_plugindir" = xauto], [with_slurm_plugindir='${libdir}/slurm'])
  SLURM_CLIENT_CPPFLAGS=""
  SLURM_CLIENT_LDFLAGS=""
  AS_IF([test "x$have_smesh" = xyes && test "x$SLURM_PREFIX" != x/usr], [
    SLURM_CLIENT_CPPFLAGS="-I$SLURM_PREFIX/include"
    for d in "$SLURM_PREFIX"/lib/*-linux-gnu "$SLURM_PREFIX"/lib64 "$SLURM_PREFIX"/lib; do
      AS_IF([test -r "$d/libslurm.so"], [SLURM_CLIENT_LDFLAGS="-L$d -Wl,-rpath,$d"; break])
    done])
  AC_SUBST([SLURM_SRC])
  AC_SUBST([SLURM_BUILD])
  AC_SUBST([SLURM_SERIES])
  AC_SUBST([SLURM_RELEASE])
  AC_SUBST([SLURM_CLIENT_CPPFLAGS])
  AC_SUBST([SLURM_CLIENT_LDFLAGS])
  AC_SUBST([SLURM_PLUGINDIR], [$with_slurm_plugindir])
  AM_CONDITIONAL([HAVE_SLURM], [test "x$have_slurm" = xyes])
  AM_CONDITIONAL([HAVE_SMESH], [test "x$have_smesh" = xyes])
  AM_CONDITIONAL([SLURM_2205], [test "x$SLURM_SERIES" = x2205])
  AM_CONDITIONAL([SLURM_2411], [test "x$SLURM_SERIES" = x2411])
])
