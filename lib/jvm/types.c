/* SPDX-License-Identifier: Apache-2.0 */
/* The JVM's basic types in the public API (their sizes are pd_jvm_type_size(), jvm.h). */
#include "jvm/jvm.h"

unsigned profdata_basic_type_size(int type, unsigned id_size)
{
	return pd_jvm_type_size(type, id_size);
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

const char *pd_jvm_array_internal_name(int type)
{
	switch (type) {
	case PROFDATA_TYPE_BOOLEAN: return "[Z";
	case PROFDATA_TYPE_CHAR: return "[C";
	case PROFDATA_TYPE_FLOAT: return "[F";
	case PROFDATA_TYPE_DOUBLE: return "[D";
	case PROFDATA_TYPE_BYTE: return "[B";
	case PROFDATA_TYPE_SHORT: return "[S";
	case PROFDATA_TYPE_INT: return "[I";
	case PROFDATA_TYPE_LONG: return "[J";
	default: return "[?";
	}
}
