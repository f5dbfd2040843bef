#!/usr/bin/env python3
"""Writes the synthetic tracexml fixtures of tests/data/tracexml/ (committed with
their output; run again after changing it: python3 gen-fixtures.py).

every-element.xml   a closed TRACE document, one element per line, holding every
                    element of the patent's DTD and the attributes TPTP's agent
                    adds, values nested in method elements, character data, an
                    unknown element, a reused transient thread id, -init-/-clinit-,
                    escapes and non-ASCII text
traceroot-open.xml  the patent's root, never closed, every element on one line
                    (how the agent wrote its files)
fragments.xml       the wire form: no declaration, no root
../../codecs/tracexml/agent.trcxml
                    a ZIP with one TraceContents entry, as the agent wrote it (beside
                    its suite, not here: a build without libarchive cannot read it, and
                    every file here is a conformance fixture)
"""
import zipfile

NODE = "UUID-1171275307-465002-93725991-2018883933"
PROC = "UUID-1171278537-425937-1356338966-1509748465"
AGENT = "UUID-1171278538-372636-1458267386-1081714554"
TRACE = "UUID-1171278545-201291-1549705139-1186792776"

ELEMENTS = [
    f'<node nodeId="{NODE}" hostname="host.example" ipaddress="10.0.0.1,127.0.0.1" timezone="0" time="1171278538.375000000"/>',
    f'<processCreate processId="{PROC}" pid="8383" nodeIdRef="{NODE}" time="1171278538.375000000" name="java" environment="X=1" applicationExecutable="Main"/>',
    f'<agentCreate agentId="{AGENT}" version="1.000" processIdRef="{PROC}" agentName="Java Profiling Agent" agentType="Profiler" agentParameters="server=controlled" time="1171278538.375000000"/>',
    f'<traceStart traceId="{TRACE}" agentIdRef="{AGENT}" time="1171278545.203125000"/>',
    '<filter pattern="com.example" mode="INCLUDE" genericPattern="SUFFIX" methodPattern="" methodMode="INCLUDE" methodGenericPattern="PREFIX"/>',
    '<option key="TICKET" value="true"/>',
    '<option key="ESCAPES" value="a &amp; b &lt;c&gt; &quot;d&quot; caf\u00e9"/>',
    '<threadStart threadId="1" time="1171278545.210937500" threadName="main" groupName="main" parentName="system" objIdRef="0"/>',
    '<runtimeInitDone threadIdRef="1" time="1171278545.210937501"/>',
    '<threadStart threadId="2" time="1171278545.210937501" threadName="worker" groupName="main" parentName="system" objIdRef="77"/>',
    '<classDef threadIdRef="1" name="com.example.Main" sourceName="Main.java" classId="100" objIdRef="101" time="1171278545.300000000" numInterfaces="0" access="public" numStaticFields="1" numMethods="3" numInstanceFields="2"/>',
    '<classDef threadIdRef="1" name="com.example.Util$Inner" sourceName="Util.java" classId="200" time="1171278545.300000001"/>',
    '<methodDef name="main" signature="([Ljava/lang/String;)V" startLineNumber="10" endLineNumber="20" methodId="1000" classIdRef="100" access="public static"><return classIdRef="200"/><parameter name="args" classIdRef="200"/><exception classIdRef="200"/></methodDef>',
    '<methodDef name="-init-" signature="()V" startLineNumber="3" endLineNumber="3" methodId="1001" classIdRef="100"/>',
    '<methodDef name="-clinit-" signature="()V" methodId="1002" classIdRef="100"/>',
    '<methodDef name="work" signature="(I)I" startLineNumber="5" endLineNumber="9" methodId="2000" classIdRef="200"/>',
    '<lineTable lineTableId="1" methodIdRef="2000" sourceName="Util.java" startLine="5" endLine="9" sourceCoordinateType="lineNumber" sourceCoordinateTable="5 6 7 8 9"/>',
    '<methodEntry threadIdRef="1" time="1171278545.400000000" methodIdRef="1000" classIdRef="100" ticket="1" stackDepth="1" threadCpuTime="0.000100000"/>',
    '<methodEntry threadIdRef="1" time="1171278545.400000100" methodIdRef="1001" classIdRef="100" objIdRef="101" ticket="2" stackDepth="2"/>',
    '<methodExit threadIdRef="1" methodIdRef="1001" classIdRef="100" ticket="2" time="1171278545.400000200" overhead="0.000001000"/>',
    '<methodCall threadIdRef="1" time="1171278545.400000300" methodIdRef="2000" classIdRef="200" ticket="3" stackDepth="2"><value parameterName="n" type="int" value="7"/></methodCall>',
    '<methodEntry threadIdRef="1" time="1171278545.400000400" methodIdRef="2000" classIdRef="200" ticket="4" stackDepth="2"><value parameterName="n" type="int" value="7"/><value type="string">seven &amp; more</value></methodEntry>',
    '<line threadIdRef="1" lineTableIdRef="1" time="1171278545.400000450" blockIndex="2"/>',
    '<objAlloc threadIdRef="1" time="1171278545.400000500" isArray="0" objId="300" classIdRef="200" size="24"/>',
    '<gcAlloc threadIdRef="1" time="1171278545.400000550" isArray="1" objId="301" classIdRef="200" size="40"/>',
    '<objDef objId="300" isArray="0" size="24"/>',
    '<objRef name="local" objIdRef="300"/>',
    '<throw threadIdRef="1" time="1171278545.400000600" objIdRef="-Unavailable-" methodIdRef="2000" ticket="4"/>',
    '<catch threadIdRef="1" time="1171278545.400000700" objIdRef="300" methodIdRef="1000" ticket="1"/>',
    '<methodExit threadIdRef="1" methodIdRef="2000" classIdRef="200" ticket="4" time="1171278545.400000800"><value type="int" value="49"/></methodExit>',
    '<methodReturn threadIdRef="1" methodIdRef="2000" classIdRef="200" ticket="3" time="1171278545.400000900"><value type="int" value="49"/></methodReturn>',
    '<gcStart threadIdRef="2" time="1171278545.500000000"/>',
    '<objMove threadIdRef="2" time="1171278545.500000100" objIdRef="300" newObjId="301"/>',
    '<objFree threadIdRef="2" time="1171278545.500000200" objIdRef="301"/>',
    '<gcFinish threadIdRef="2" time="1171278545.500000300" totalObjSpace="1048576" usedObjSpace="4096" usedObjects="12"/>',
    '<processSuspend time="1171278545.600000000"/>',
    '<processResume time="1171278545.700000000"/>',
    '<code type="Java" value="int x = 1;"/>',
    '<tag name="phase" value="warm-up"/>',
    '<vendorExtension level="3" note="unknown to the DTD"><detail>kept verbatim</detail></vendorExtension>',
    '<methodExit threadIdRef="1" methodIdRef="1000" classIdRef="100" ticket="1" time="1171278545.800000000" overhead="0.000015000"/>',
    '<threadEnd threadIdRef="2" time="1171278545.900000000"/>',
    # The transient id 2 is defined again: a new thread from here on.
    '<threadStart threadId="2" time="1171278546.000000000" threadName="worker-2" groupName="main" parentName="system"/>',
    '<methodEntry threadIdRef="2" time="1171278546.100000000" methodIdRef="2000" classIdRef="200" ticket="5" stackDepth="48"/>',
    '<methodExit threadIdRef="2" methodIdRef="2000" classIdRef="200" ticket="5" time="1171278546.100000500"/>',
    '<classUnload threadIdRef="2" time="1171278546.200000000" classIdRef="200"/>',
    '<methodCount methodIdRef="1000" count="1"/>',
    '<threadEnd threadIdRef="2" time="1171278546.300000000"/>',
    '<runtimeShutdown threadIdRef="1" time="1171278546.400000000"/>',
    f'<traceEnd traceIdRef="{TRACE}" time="1171278546.500000000"/>',
    f'<agentDestroy agentIdRef="{AGENT}" time="1171278546.600000000"/>',
]

AGENT_ELEMENTS = [e for e in ELEMENTS if "vendorExtension" not in e]


def write(name, text):
    with open(name, "w", encoding="utf-8", newline="") as f:
        f.write(text)


write("every-element.xml", '<?xml version="1.0" encoding="UTF-8"?>\n<TRACE>\n' + "\n".join(ELEMENTS) + "\n</TRACE>\n")
write("traceroot-open.xml", '<?xml version="1.0"?>\n<traceRoot>\n' + "".join(AGENT_ELEMENTS))
write("fragments.xml", "\n".join(ELEMENTS[7:20]) + "\n")
info = zipfile.ZipInfo("TraceContents-Monday__February_12__2007_11_08_58_AM_GMT.xml", (2007, 2, 12, 11, 8, 58))
info.compress_type = zipfile.ZIP_DEFLATED
with zipfile.ZipFile("../../codecs/tracexml/agent.trcxml", "w") as z:
    z.writestr(info, '<?xml version="1.0"?>\n<TRACE>\n' + "".join(AGENT_ELEMENTS))
