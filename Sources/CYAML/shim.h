#ifndef NEONSYNC_CYAML_SHIM_H
#define NEONSYNC_CYAML_SHIM_H
/* libyaml, the YAML 1.1 parser: front matter, comment commands' YAML and
   the client's config file are read through its event API. */
#include <yaml.h>
#endif
