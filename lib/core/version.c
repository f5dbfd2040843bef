/* SPDX-License-Identifier: Apache-2.0 */
#include "internal.h"

#include <profdata/version.h>

unsigned profdata_version_number(void)
{
	return PROFDATA_VERSION_NUMBER;
}

const char *profdata_version_string(void)
{
	return PROFDATA_VERSION_STRING;
}

const char *profdata_strerror(int code)
{
	switch (code) {
	case PROFDATA_OK: return "success";
	case PROFDATA_STOPPED: return "stopped by a callback";
	case PROFDATA_ERROR: return "error";
	case PROFDATA_ENOMEM: return "out of memory";
	case PROFDATA_EIO: return "input/output error";
	case PROFDATA_EFORMAT: return "invalid input";
	case PROFDATA_ETRUNCATED: return "input truncated";
	case PROFDATA_EUNSUPPORTED: return "unsupported variant";
	case PROFDATA_EINVAL: return "invalid argument";
	case PROFDATA_ENOTFOUND: return "not found";
	case PROFDATA_ERANGE: return "value out of range for the target format";
	case PROFDATA_ELIMIT: return "input exceeds a limit";
	default: return code <= PROFDATA_EUSER ? "a callback's own error" : "unknown error code";
	}
}
