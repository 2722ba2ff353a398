<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>vl::MainWindow</name>
    <message numerus="yes">
        <source>%n preset file(s) skipped: %1</source>
        <translation>
            <numerusform>%n preset file skipped: %1</numerusform>
            <numerusform>%n preset files skipped: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>vl::ui</name>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n GPU</numerusform>
            <numerusform>%n GPUs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Current, %n GPU(s)</source>
        <translation>
            <numerusform>Current, %n GPU</numerusform>
            <numerusform>Current, %n GPUs</numerusform>
        </translation>
    </message>
</context>
</TS>
