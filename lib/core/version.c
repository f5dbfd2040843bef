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
	default: return "unknown error code";
	}
}

unsigned profdata_basic_type_size(int type, unsigned id_size)
{
	switch (type) {
	case PROFDATA_TYPE_OBJECT: return id_size;
	case PROFDATA_TYPE_BOOLEAN: case PROFDATA_TYPE_BYTE: return 1;
	case PROFDATA_TYPE_CHAR: case PROFDATA_TYPE_SHORT: return 2;
	case PROFDATA_TYPE_FLOAT: case PROFDATA_TYPE_INT: return 4;
	case PROFDATA_TYPE_DOUBLE: case PROFDATA_TYPE_LONG: return 8;
	default: return 0;
	}
}

const char *profdata_basic_type_name(int type)
{
	switch (type) {
	case PROFDATA_TYPE_OBJECT: return "java.lang.Object";
	case PROFDATA_TYPE_BOOLEAN: return "boolean";
	case PROFDATA_TYPE_CHAR: return "char";
	case PROFDATA_TYPE_FLOAT: return "float";
	case PROFDATA_TYPE_DOUBLE: return "double";
	case PROFDATA_TYPE_BYTE: return "byte";
	case PROFDATA_TYPE_SHORT: return "short";
	case PROFDATA_TYPE_INT: return "int";
	case PROFDATA_TYPE_LONG: return "long";
	default: return "?";
	}
}
